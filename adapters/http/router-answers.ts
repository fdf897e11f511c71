import type { Router, RouterContext, RouterMiddleware } from '@koa/router'
import type { Context, Middleware } from 'koa'
import { type Failure, sendFailure } from './error-response.js'
import { methodNotAllowed, routeNotFound } from './http-failures.js'

/** The order `Allow` lists methods in, whatever order the routes were declared in. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The methods the routes of the request's path allow (the layers @koa/router matched), in METHOD_ORDER. */
const allowedAt = (ctx: Context): string[] => {
  const allowed = new Set((ctx as Partial<RouterContext>).matched?.flatMap((layer) => layer.methods))
  return METHOD_ORDER.filter((method) => allowed.has(method))
}

/** What allowedMethods throws when the path's routes do not allow the method, for the error boundary to answer. */
class MethodRefused extends Error {}

/**
 * @koa/router's allowedMethods, throwing its 405 for the error boundary to answer as every failure
 * is answered. Its 501 is for a method the router does not know; createRouter gives it every method
 * Node parses, so the 501 is never reached, and were it to be, a 405 with `Allow` is the answer.
 */
export const allowedMethods = (router: Router): RouterMiddleware =>
  router.allowedMethods({ throw: true, methodNotAllowed: () => new MethodRefused(), notImplemented: () => new MethodRefused() })

/** The failure that answers what allowedMethods threw (405 with `Allow`); undefined for any other error. */
export const routerRefusal = (error: unknown, ctx: Context): Failure | undefined =>
  error instanceof MethodRefused ? methodNotAllowed(ctx.method, allowedAt(ctx)) : undefined

/**
 * Reached when no route answered the request (registered after the router, as its docs show): a
 * path no route has is 404 route_not_found. OPTIONS on a path that has routes is answered here,
 * 204 (it has no content) with `Allow`: allowedMethods would answer it 200, and then leaves an
 * answered request alone. Any other method is left to allowedMethods, which refuses it.
 */
export const noRoute: Middleware = (ctx) => {
  const allowed = allowedAt(ctx)
  if (allowed.length === 0) return sendFailure(ctx, routeNotFound(ctx.method, ctx.path))
  if (ctx.method !== 'OPTIONS') return
  ctx.set('Allow', allowed.join(', '))
  ctx.status = 204
}
