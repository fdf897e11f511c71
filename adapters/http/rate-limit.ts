import * as E from 'fp-ts/Either'
import type { Context, Middleware } from 'koa'
import type { Logger } from 'pino'
import type { RateLimitCounter } from '../../src/wiring/rate-limit-counter.js'
import type { AuthState } from './auth.js'
import { sendFailure } from './error-response.js'
import { rateLimited } from './http-failures.js'
import { rateLimitField, rateLimitPolicyField } from './ratelimit-fields.js'

/** Seconds in one rate-limit window. */
const RATE_LIMIT_WINDOW_SECONDS = 60

interface RateLimitOptions {
  /** Requests each API key may make per window. */
  readonly limit: number
  /** Where the requests are counted: the store's counter, shared when the store is. */
  readonly counter: RateLimitCounter
  /** Where a count that could not be made is reported. */
  readonly logger: Logger
  /** Requests that are neither counted nor limited; none when omitted. */
  readonly uncounted?: (ctx: Context) => boolean
}

/**
 * A fixed-window limit per API key, with the headers of draft-ietf-httpapi-ratelimit-headers-09:
 * `RateLimit-Policy` (quota q per window w) and `RateLimit` (remaining r, seconds t until the window
 * resets) on every response it applies to, 2xx and 429 alike. Runs after authentication, so a
 * missing or wrong key is answered 401 and costs a real client nothing; keys are counted as their
 * SHA-256 (the client's scope), never as themselves. The counter decides the windows (see the
 * RateLimitCounter port).
 *
 * When the counter fails (its store is down), the request goes through uncounted, with the policy
 * but no `RateLimit`, and a warning (an error when no retry fixes it) is logged: the limit is about
 * fairness between clients, not protection, and refusing every request because counting failed
 * would turn a counter outage into a full one.
 */
export const rateLimit = ({ limit, counter, logger, uncounted = () => false }: RateLimitOptions): Middleware<AuthState> => {
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000
  const policy = rateLimitPolicyField(limit, RATE_LIMIT_WINDOW_SECONDS)
  return async (ctx, next) => {
    const client = ctx.state.client
    if (client === undefined || uncounted(ctx)) {
      await next()
      return
    }
    ctx.set('RateLimit-Policy', policy)
    const hit = await counter.hit(client.scope, windowMs)()
    if (E.isLeft(hit)) {
      logger[hit.left._tag === 'StoreFailed' ? 'error' : 'warn'](
        { requestId: ctx.response.get('X-Request-Id'), keyId: client.keyId, detail: hit.left.detail },
        'rate limit not applied: the request could not be counted, so it goes through',
      )
      await next()
      return
    }
    const { count, resetMs } = hit.right
    const reset = Math.max(1, Math.ceil(resetMs / 1000))
    ctx.set('RateLimit', rateLimitField(Math.max(0, limit - count), reset))
    if (count > limit) {
      sendFailure(ctx, rateLimited(reset))
      return
    }
    await next()
  }
}
