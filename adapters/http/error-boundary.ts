import type { Context, Middleware } from 'koa'
import type { Logger } from 'pino'
import { type FailureState, sendFailure } from './error-response.js'
import { internalError } from './http-failures.js'
import type { Redact } from './key-redaction.js'
import type { RequestIdState } from './request-id.js'
import { loggedPath } from './request-log-line.js'
import { routerRefusal } from './router-answers.js'

export interface ErrorBoundaryOptions {
  readonly logger: Logger
  /** Hides the API keys in the logged path and in Error messages. */
  readonly redact: Redact
}

/** An Error's message repeats names the client chose (a path, a parameter): any API key in them is redacted, as everywhere. */
const redactMessage = (ctx: Context, redact: Redact): void => {
  const body = ctx.body as { readonly message?: unknown } | null | undefined
  if ((ctx.state as FailureState).failure !== undefined && typeof body?.message === 'string') {
    const message = redact(body.message)
    if (message !== body.message) ctx.body = { ...body, message }
  }
}

/**
 * The one exit for anything thrown: the router's refusal of a method is answered as a 405; anything
 * else is logged, and answered as a 500 that says nothing of it. Every Error answered inside it
 * leaves with its message redacted.
 */
export const errorBoundary =
  ({ logger, redact }: ErrorBoundaryOptions): Middleware<RequestIdState> =>
  async (ctx, next) => {
    const path = ctx.path
    try {
      await next()
    } catch (error) {
      const refusal = routerRefusal(error, ctx)
      if (refusal !== undefined) sendFailure(ctx, refusal)
      else {
        logger.error(
          { err: error, requestId: ctx.state.requestId, method: ctx.method, path: loggedPath(path, redact) },
          'unexpected failure while answering a request',
        )
        sendFailure(ctx, internalError)
      }
    }
    redactMessage(ctx, redact)
  }
