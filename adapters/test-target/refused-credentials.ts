import * as E from 'fp-ts/Either'
import type { Middleware, Next, ParameterizedContext } from 'koa'
import { authorizationValues, readBearerToken } from '../http/auth.js'
import type { Authentication } from '../http/extension.js'
import { keyHolderIn } from './authorization-form.js'
import type { FaultState } from './fault-state.js'
import { type KeepRequest, SANDBOX_PATHS } from './keeping-requests.js'

/**
 * Before authentication: a request whose Authorization authentication will refuse for its form (no
 * `Bearer`, `Bearer` twice, two headers) but which carries a sandbox's key is kept in that sandbox's
 * journal with the refusal it gets, so that the client's author can see why it was refused (the
 * report's `malformed_authorization`). Nothing else changes: it is still refused, and costs the key
 * no quota. A well-formed credential is left to authentication untouched.
 */
export const journalRefusedCredentials = (keep: KeepRequest, { authenticator, protects }: Authentication): Middleware<FaultState> => {
  const keptIfHolder = async (ctx: ParameterizedContext<FaultState>, next: Next, values: ReadonlyArray<string>): Promise<void> => {
    const holder = await keyHolderIn(values, authenticator)
    if (holder === undefined) await next()
    else await keep(ctx, holder.scope, next)
  }
  return (ctx, next) => {
    const values = protects(ctx.path) && !SANDBOX_PATHS.test(ctx.path) ? authorizationValues(ctx.req.rawHeaders) : []
    const refusedForForm = values.length > 1 || (values.length === 1 && E.isLeft(readBearerToken(values[0] || undefined)))
    // A well-formed credential, or none (nearly every request), goes on at once.
    return refusedForForm ? keptIfHolder(ctx, next, values) : next()
  }
}
