import { randomUUID } from 'node:crypto'
import type { RouterContext } from '@koa/router'
import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import type { AuthState } from './auth.js'
import { FailureSignal, type FailureState, sendFailure } from './error-response.js'
import { internalError } from './http-failures.js'
import type { RequestMetrics } from './metrics.js'

/** An incoming X-Request-Id is kept when it is short and plain enough to be safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

export const requestIdOf = (incoming: string): string => (SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID())

export const API_PREFIX = '/v1'

export const isUnderApi = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)

/**
 * The outermost middleware, what every request passes through once (one middleware, not four, since
 * each costs a dispatch on every request):
 * - the request id: an incoming X-Request-Id when sane, otherwise a new one, returned on every response;
 * - the headers every response carries; API answers are never stored by caches;
 * - the one exit for anything thrown: a FailureSignal is answered as itself, anything else as a 500;
 * - one JSON log line when the response is decided: method, route pattern, status, duration, request
 *   id, the caller's key id and, for failures, their tag, and for store failures their detail. At
 *   `error` level for a store failure no retry fixes (StoreFailed), so that alerts on errors catch
 *   it; `info` otherwise. Never a header value, a key or a body.
 *   With PETSTORE_FAULTS, also the service's own `Preference-Applied`, and `forced` on a forced
 *   failure, so that nobody mistakes it for a real one.
 */
export const edge =
  (logger: Logger, metrics?: RequestMetrics): Middleware<AuthState & FailureState> =>
  async (ctx, next) => {
    const started = performance.now()
    const requestId = requestIdOf(ctx.get('X-Request-Id'))
    ctx.set('X-Request-Id', requestId)
    ctx.set('X-Content-Type-Options', 'nosniff')
    if (isUnderApi(ctx.path)) ctx.set('Cache-Control', 'no-store')
    try {
      await next()
    } catch (error) {
      if (error instanceof FailureSignal) sendFailure(ctx, error.failure)
      else {
        logger.error({ err: error, requestId, method: ctx.method, path: ctx.path }, 'unexpected failure while answering a request')
        sendFailure(ctx, internalError)
      }
    }
    // @koa/router records the matched pattern on the context; undefined when no route matched.
    const route = (ctx as Partial<Pick<RouterContext, '_matchedRoute'>>)._matchedRoute
    const failure = ctx.state.failure
    const elapsedMs = performance.now() - started
    // Node's getHeader: undefined when the header was not set, whatever Koa's types say.
    const preferenceApplied: unknown = ctx.response.get('Preference-Applied')
    metrics?.observe(
      ctx.method,
      typeof route === 'string' ? route : 'unmatched',
      ctx.status,
      elapsedMs / 1000,
      failure?._tag === 'StoreUnavailable',
    )
    // A store failure that no retry fixes is logged as an error, with what the operator must fix.
    const level = failure?._tag === 'StoreFailed' ? 'error' : 'info'
    logger[level](
      {
        requestId,
        method: ctx.method,
        route: typeof route === 'string' ? route : null,
        status: ctx.status,
        durationMs: Math.round(elapsedMs * 1000) / 1000,
        keyId: ctx.state.client?.keyId ?? null,
        ...(failure === undefined ? {} : { failure: failure._tag }),
        ...(failure?._tag === 'ForcedFailure' ? { forced: true } : {}),
        ...(typeof preferenceApplied === 'string' ? { preferenceApplied } : {}),
        ...(failure?._tag === 'StoreUnavailable' || failure?._tag === 'StoreFailed' ? { detail: failure.detail } : {}),
      },
      'request',
    )
  }
