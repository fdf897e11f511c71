import type Router from '@koa/router'
import * as E from 'fp-ts/Either'
import type { Middleware } from 'koa'
import { unauthorized } from '../../src/domain/errors.js'
import type { PetUseCases } from '../../src/domain/use-cases.js'
import type { Sandboxes } from '../../src/ports/sandboxes.js'
import type { AuthState } from './auth.js'
import { sendFailure } from './error-response.js'

export const SANDBOX_RESET_PATH = '/v1/sandbox/reset'

export interface SandboxState extends AuthState {
  /** The use cases of the caller's sandbox; absent when sandboxes are off. */
  useCases?: PetUseCases
}

/**
 * Chooses the caller's sandbox once, as the request meets the ports, so that the whole request
 * (however long it takes, whatever a reset does meanwhile) works on one version of it.
 */
export const chooseSandbox =
  (sandboxes: Sandboxes): Middleware<SandboxState> =>
  async (ctx, next) => {
    const client = ctx.state.client
    if (client !== undefined) {
      const useCases = await sandboxes.useCasesFor(client)()
      if (E.isLeft(useCases)) return sendFailure(ctx, useCases.left)
      ctx.state.useCases = useCases.right
    }
    await next()
  }

/** POST /v1/sandbox/reset: the caller's sandbox back to its seed (or empty); 204. */
export const registerSandboxRoutes = (router: Router, sandboxes: Sandboxes): void => {
  router.post('resetSandbox', SANDBOX_RESET_PATH, async (ctx) => {
    // Authentication runs before every /v1 route, so a client is always known here.
    const client = (ctx.state as AuthState).client
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    const result = await sandboxes.reset(client)()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    ctx.status = 204
  })
}
