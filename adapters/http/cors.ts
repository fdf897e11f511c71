import cors from '@koa/cors'
import type { Context, Middleware } from 'koa'
import { isUnderApi } from './api-path.js'

/** `*` for any origin, or the exact origins (scheme, host and port) allowed to call the API. */
export type CorsOrigins = '*' | ReadonlyArray<string>

/** Every response header a client of this API reads, so that a page's script may read it too. */
const EXPOSED_HEADERS = [
  'Location',
  'Link',
  'Deprecation',
  'Sunset',
  'X-Request-Id',
  'ETag',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'Preference-Applied',
]

/**
 * Cross-origin access to /v1 for browsers (@koa/cors), off unless PETSTORE_CORS_ORIGINS is set. It runs
 * before authentication: a preflight OPTIONS cannot carry the key, and its answer reveals nothing
 * but what the API allows. A request from an origin not on the list gets no CORS headers, so the
 * browser keeps the answer from the page.
 */
export const corsFor = (origins: CorsOrigins): Middleware => {
  const allowed = (origin: string): boolean => origins === '*' || origins.includes(origin)
  const handle = cors({
    origin: (ctx: Context) => {
      const origin = ctx.get('Origin')
      return allowed(origin) ? (origins === '*' ? '*' : origin) : ''
    },
    allowMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id', 'Prefer'],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  })
  // Only the API is shared: /metrics, /readyz and the reference page stay same-origin.
  return async (ctx, next) => {
    if (isUnderApi(ctx.path)) await handle(ctx, next)
    else await next()
  }
}
