import type { Middleware } from 'koa'
import { isUnderApi } from './api-path.js'

/** The headers every response carries: no MIME sniffing, and API answers never stored by caches (a read marks itself cacheable). */
export const commonHeaders: Middleware = (ctx, next) => {
  ctx.set('X-Content-Type-Options', 'nosniff')
  if (isUnderApi(ctx.path)) ctx.set('Cache-Control', 'no-store')
  return next()
}
