import type { Middleware } from 'koa'
import type { AuthState } from './auth.js'
import { sendFailure } from './error-response.js'
import { rateLimited } from './http-failures.js'
import { rateLimitField, rateLimitPolicyField } from './ratelimit-fields.js'

/** Seconds in one rate-limit window. */
export const RATE_LIMIT_WINDOW_SECONDS = 60

export interface RateLimitOptions {
  /** Requests each API key may make per window. */
  readonly limit: number
  readonly now?: () => number
}

/**
 * A fixed-window limit per API key, per instance, with the headers of
 * draft-ietf-httpapi-ratelimit-headers-09: `RateLimit-Policy` (quota q per window w) and `RateLimit`
 * (remaining r, seconds t until the window resets) on every response it applies to, 2xx and 429
 * alike. Runs after authentication, so a missing or wrong key is answered 401 and costs a real
 * client nothing; keys are held as their SHA-256 (the client's scope), never as themselves.
 * Windows are aligned on the clock, so every count starts again at once and the map is replaced.
 */
export const rateLimit = ({ limit, now = Date.now }: RateLimitOptions): Middleware<AuthState> => {
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000
  const policy = rateLimitPolicyField(limit, RATE_LIMIT_WINDOW_SECONDS)
  let windowIndex = -1
  let used = new Map<string, number>()
  return async (ctx, next) => {
    const client = ctx.state.client
    if (client === undefined) {
      await next()
      return
    }
    const time = now()
    const index = Math.floor(time / windowMs)
    if (index !== windowIndex) {
      windowIndex = index
      used = new Map()
    }
    const count = (used.get(client.scope) ?? 0) + 1
    used.set(client.scope, count)
    const reset = Math.max(1, Math.ceil(((index + 1) * windowMs - time) / 1000))
    ctx.set('RateLimit-Policy', policy)
    ctx.set('RateLimit', rateLimitField(Math.max(0, limit - count), reset))
    if (count > limit) {
      sendFailure(ctx, rateLimited(reset))
      return
    }
    await next()
  }
}
