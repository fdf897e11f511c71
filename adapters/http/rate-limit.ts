import * as E from 'fp-ts/Either'
import type { Context, Middleware } from 'koa'
import type { Logger } from 'pino'
import { quotaScope, type RateLimitCounter } from '../../src/store/rate-limit-counter.js'
import type { AuthState } from './auth.js'
import { sendFailure } from './error-response.js'
import { rateLimited } from './http-failures.js'
import { DEFAULT_POLICY, rateLimitField, rateLimitPolicyField } from './ratelimit-fields.js'

/** Seconds in one rate-limit window. */
const RATE_LIMIT_WINDOW_SECONDS = 60

/**
 * A quota of its own for some requests, in place of the key's main one: its requests are counted
 * apart, and limited by its own `limit`, in windows of the same length.
 */
export interface OwnQuota {
  /** Its policy's name in `RateLimit-Policy` and `RateLimit`; its counts are kept under it too. */
  readonly name: string
  /** Requests each API key may make in it per window. */
  readonly limit: number
}

interface RateLimitOptions {
  /** Requests each API key may make per window, in its main quota. */
  readonly limit: number
  /** Where the requests are counted: the store's counter, shared when the store is. */
  readonly counter: RateLimitCounter
  /** Where a count that could not be made is reported. */
  readonly logger: Logger
  /** The quota of its own a request is counted in; the main quota when it answers undefined (always, when omitted). */
  readonly quotaOf?: (ctx: Context) => OwnQuota | undefined
}

/**
 * A fixed-window limit per API key, with the headers of draft-ietf-httpapi-ratelimit-headers-09:
 * `RateLimit-Policy` (quota q per window w) and `RateLimit` (remaining r, seconds t until the window
 * resets) on every response it applies to, 2xx and 429 alike. Runs after authentication, so a
 * missing or wrong key is answered 401 and costs a real client nothing; keys are counted as their
 * SHA-256 (the client's scope), never as themselves. The counter decides the windows (see the
 * RateLimitCounter port). Requests `quotaOf` puts in a quota of their own are counted and limited
 * in it alone, with its name in both fields, and spend nothing of the main quota.
 *
 * When the counter fails (its store is down), the request goes through uncounted, with the policy
 * but no `RateLimit`, and a warning (an error when no retry fixes it) is logged: the limit is about
 * fairness between clients, not protection, and refusing every request because counting failed
 * would turn a counter outage into a full one.
 */
export const rateLimit = ({ limit: mainLimit, counter, logger, quotaOf = () => undefined }: RateLimitOptions): Middleware<AuthState> => {
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000
  return async (ctx, next) => {
    const client = ctx.state.client
    if (client === undefined) {
      await next()
      return
    }
    const own = quotaOf(ctx)
    const { name, limit } = own ?? { name: DEFAULT_POLICY, limit: mainLimit }
    ctx.set('RateLimit-Policy', rateLimitPolicyField(limit, RATE_LIMIT_WINDOW_SECONDS, name))
    const hit = await counter.hit(own === undefined ? client.scope : quotaScope(client.scope, own.name), windowMs)()
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
    ctx.set('RateLimit', rateLimitField(Math.max(0, limit - count), reset, name))
    if (count > limit) {
      sendFailure(ctx, rateLimited(reset))
      return
    }
    await next()
  }
}
