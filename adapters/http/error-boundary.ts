import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import { loggedPath } from './access-log.js'
import { sendFailure } from './error-response.js'
import { internalError } from './http-failures.js'
import type { Redact } from './key-redaction.js'
import type { RequestIdState } from './request-id.js'
import { routerRefusal } from './router-answers.js'

export interface ErrorBoundaryOptions {
  readonly logger: Logger
  /** Hides the configured API keys from the logged path. */
  readonly redact: Redact
}

/**
 * The one exit for anything thrown: the router's refusal of a method is answered as a 405; anything
 * else is logged, and answered as a 500 that says nothing of it.
 */
export const errorBoundary =
  ({ logger, redact }: ErrorBoundaryOptions): Middleware<RequestIdState> =>
  async (ctx, next) => {
    const path = ctx.path
    try {
      await next()
    } catch (error) {
      const refusal = routerRefusal(error, ctx)
      if (refusal !== undefined) return sendFailure(ctx, refusal)
      logger.error(
        { err: error, requestId: ctx.state.requestId, method: ctx.method, path: loggedPath(path, redact) },
        'unexpected failure while answering a request',
      )
      sendFailure(ctx, internalError)
    }
  }
