import { randomUUID } from 'node:crypto'
import type { RouterContext } from '@koa/router'
import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import type { AuthState } from './auth.js'
import { type FailureState, sendFailure } from './error-response.js'
import { internalError } from './http-failures.js'
import type { RequestMetrics } from './metrics.js'
import { oncePerTurn } from './once-per-turn.js'
import type { RouteState } from './routes.js'

/** An incoming X-Request-Id is kept when it is short and plain enough to be safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

export const requestIdOf = (incoming: string): string => (SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID())

export const API_PREFIX = '/v1'

export const isUnderApi = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)

/** The longest path a log line carries; a longer one is cut there and marked with `…`. */
export const MAX_LOGGED_PATH = 200

/** The path as the client sent it (percent-escapes kept, no query), bounded for the log. */
export const loggedPath = (path: string): string => (path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path)

/** What the log line and the metrics of a request are made from. */
interface AnsweredRequest {
  readonly line: Record<string, unknown>
  readonly method: string
  /** The route's pattern, or `unmatched`. */
  readonly route: string
  readonly status: number
  readonly seconds: number
  readonly failure: string | undefined
}

/**
 * The outermost middleware, what every request passes through once (one middleware, not four, since
 * each costs a dispatch on every request):
 * - the request id: an incoming X-Request-Id when sane, otherwise a new one, returned on every response;
 * - the headers every response carries; API answers are never stored by caches;
 * - the one exit for anything thrown: logged, and answered as a 500 that says nothing of it;
 * - one JSON log line when the response is decided: method, path (without the query, bounded), route
 *   pattern, status, duration, request id, the caller's key id and, for failures, their tag, for a
 *   401 why (`reason`: missing, malformed or invalid), and for store failures their detail. At
 *   `error` level for a store failure no retry fixes (StoreFailed), so that alerts on errors catch
 *   it; `info` otherwise. Never a header value, a key, a query or a body.
 *   With PETSTORE_FAULTS, also the service's own `Preference-Applied`, and `forced` on a forced
 *   failure, so that nobody mistakes it for a real one.
 * Headers are set on Node's response directly: Koa's setter checks nothing that can fail here.
 */
export const edge = (logger: Logger, metrics?: RequestMetrics, requestIds = true): Middleware<AuthState & FailureState & RouteState> => {
  // The log line and the metrics of each answered request, once per turn of the event loop.
  const record = oncePerTurn(({ line, method, route, status, seconds, failure }: AnsweredRequest) => {
    metrics?.observe(method, route, status, seconds, failure === 'StoreUnavailable')
    // A store failure that no retry fixes is logged as an error, with what the operator must fix.
    if (failure === 'StoreFailed') logger.error(line, 'request')
    else logger.info(line, 'request')
  })
  return async (ctx, next) => {
    const started = performance.now()
    const method = ctx.method
    const response = ctx.res
    const incoming = ctx.req.headers['x-request-id']
    const requestId = requestIds ? requestIdOf(typeof incoming === 'string' ? incoming : '') : undefined
    if (requestId !== undefined) response.setHeader('X-Request-Id', requestId)
    response.setHeader('X-Content-Type-Options', 'nosniff')
    const path = ctx.path
    if (isUnderApi(path)) response.setHeader('Cache-Control', 'no-store')
    try {
      await next()
    } catch (error) {
      logger.error({ err: error, requestId, method, path: loggedPath(path) }, 'unexpected failure while answering a request')
      sendFailure(ctx, internalError)
    }
    // The pet operations' dispatch records their pattern; @koa/router records the others'; undefined when no route matched.
    const route = ctx.state.route ?? (ctx as Partial<Pick<RouterContext, '_matchedRoute'>>)._matchedRoute
    const failure = ctx.state.failure
    const status = ctx.status
    const elapsedMs = performance.now() - started
    // Node's getHeader: undefined when the header was not set.
    const preferenceApplied = response.getHeader('Preference-Applied')
    // Built field by field: spreading optional parts costs an object each, on every request.
    const line: Record<string, unknown> = {
      requestId,
      method,
      path: loggedPath(path),
      route: typeof route === 'string' ? route : null,
      status,
      durationMs: Math.round(elapsedMs * 1000) / 1000,
      keyId: ctx.state.client?.keyId ?? null,
    }
    if (failure !== undefined) {
      line.failure = failure._tag
      if (failure._tag === 'Unauthorized') line.reason = failure.reason
      if (failure._tag === 'ForcedFailure') line.forced = true
      if (failure._tag === 'StoreUnavailable' || failure._tag === 'StoreFailed') line.detail = failure.detail
    }
    if (typeof preferenceApplied === 'string') line.preferenceApplied = preferenceApplied
    record({
      line,
      method,
      route: typeof route === 'string' ? route : 'unmatched',
      status,
      seconds: elapsedMs / 1000,
      failure: failure?._tag,
    })
  }
}
