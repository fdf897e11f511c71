import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { RouterContext } from '@koa/router'
import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import type { AuthState } from './auth.js'
import { closingAtShutdown } from './closing-at-shutdown.js'
import { type FailureState, sendFailure } from './error-response.js'
import { internalError } from './http-failures.js'
import type { Redact } from './key-redaction.js'
import type { RequestMetrics } from './metrics.js'

/** What a driver that breaks answers on purpose (the test target's faults) tells a request's log line. */
export interface ForcedFaultState {
  /** The fault applied: logged as `fault`, with `forced: true`. */
  fault?: string
  /** The connection was broken before any status was sent: logged with `status: null`, not counted. */
  statusNotSent?: boolean
}

interface EdgeOptions {
  readonly logger: Logger
  /** Requests counted for GET /metrics; none when omitted. */
  readonly metrics?: RequestMetrics
  /** Aborted when shutdown begins. */
  readonly shutdown?: AbortSignal
  /** Hides the configured API keys from the request id and the logged path. */
  readonly redact: Redact
}

/** The status logged and counted for a request whose connection ended before it had all arrived. */
const CONNECTION_LOST_STATUS = 499

/** An incoming X-Request-Id is kept when it is short and plain enough to be safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

/**
 * The request id: the incoming X-Request-Id when sane and free of API keys (an id is logged and
 * echoed, a key never), otherwise a new one.
 */
export const requestIdOf = (incoming: string, redact: Redact): string =>
  SANE_REQUEST_ID.test(incoming) && redact(incoming) === incoming ? incoming : randomUUID()

const API_PREFIX = '/v1'

export const isUnderApi = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)

/** The longest path a log line carries; a longer one is cut there and marked with `…`. */
const MAX_LOGGED_PATH = 200

/** The path as the client sent it (percent-escapes kept, no query, any API key redacted), bounded for the log. */
export const loggedPath = (sent: string, redact: Redact): string => {
  const path = redact(sent)
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path
}

/**
 * Whether reading the request's body began but stopped before its end (a body over the limit, a
 * corrupt compressed one). Node reads on and discards a body nobody began to read, once the answer
 * is sent; one left half-read stays in the connection, where the next request would be looked for.
 */
const bodyLeftUnread = (request: IncomingMessage): boolean => request.readableDidRead && !request.readableEnded

/**
 * The outermost middleware, what every request passes through once:
 * - the request id: an incoming X-Request-Id when sane, otherwise a new one, returned on every response;
 * - the headers every response carries; API answers are never stored by caches;
 * - the one exit for anything thrown: logged, and answered as a 500 that says nothing of it;
 * - `Connection: close` on an answer given when the request's body was left half-read (a 413, a
 *   corrupt gzip body: the connection could carry no further request) or refused unread for its
 *   size (a 413 by Content-Length: draining it would read what the limit refuses), and once
 *   shutdown has begun on the answer of the latest request of each connection, so that its client
 *   sends nothing more on it and every request carried out before is answered first
 *   (closing-at-shutdown.ts); a request arriving after that answer is not carried out, and logged
 *   with `status: null` and `failure: ConnectionClosing`;
 * - one JSON log line when the response is decided: method, path (without the query, bounded), route
 *   pattern, status, duration, request id, the caller's key id and, for failures, their tag, for a
 *   401 why (`reason`: missing, malformed or invalid), and for store failures their detail. At
 *   `error` level for a store failure no retry fixes (StoreFailed), so that alerts on errors catch
 *   it; `info` otherwise. Never a header value, a key (one in the path is redacted), a query or a body.
 *   With PETSTORE_FAULTS, also the service's own `Preference-Applied`, and `forced` on a forced
 *   failure, so that nobody mistakes it for a real one.
 */
export const edge = ({ logger, metrics, shutdown, redact }: EdgeOptions): Middleware<AuthState & FailureState> => {
  const closing = closingAtShutdown(shutdown)
  return async (ctx, next) => {
    const started = performance.now()
    const incoming = ctx.get('X-Request-Id')
    const requestId = requestIdOf(incoming, redact)
    if (!closing.begin(ctx.req)) {
      ctx.respond = false
      const line = { requestId, method: ctx.method, path: loggedPath(ctx.path, redact), route: null, status: null, keyId: null }
      return logger.info({ ...line, failure: 'ConnectionClosing' }, 'request')
    }
    ctx.set('X-Request-Id', requestId)
    ctx.set('X-Content-Type-Options', 'nosniff')
    const path = ctx.path
    if (isUnderApi(path)) ctx.set('Cache-Control', 'no-store')
    try {
      await next()
    } catch (error) {
      logger.error(
        { err: error, requestId, method: ctx.method, path: loggedPath(path, redact) },
        'unexpected failure while answering a request',
      )
      sendFailure(ctx, internalError)
    }
    // A body refused for its size is not read (nor drained, as Node would drain a body nobody read).
    const refusedBody = ctx.state.failure?._tag === 'PayloadTooLarge' && !ctx.req.complete
    if (closing.closes(ctx.req) || refusedBody || bodyLeftUnread(ctx.req)) ctx.set('Connection', 'close')
    // The pattern of the route @koa/router matched (its public routeMatched and routerPath); undefined when none did.
    const { routeMatched, routerPath } = ctx as Partial<Pick<RouterContext, 'routeMatched' | 'routerPath'>>
    const route = routeMatched === true ? routerPath : undefined
    const failure = ctx.state.failure
    // The connection ended before the request had all arrived (the client gave up mid-upload): no
    // answer could be sent. Logged and counted as 499, nginx's status for a request the client closed.
    const lost = !ctx.req.complete && ctx.req.destroyed
    // Unless the HTTP server itself answered it (a timeout, bytes that are not HTTP in its body),
    // ending the connection with that answer: then its log line is the server's.
    if (lost && ctx.req.socket.writableEnded && !ctx.res.headersSent) return
    const status = lost ? CONNECTION_LOST_STATUS : ctx.status
    const elapsedMs = performance.now() - started
    const line: Record<string, unknown> = {
      requestId,
      method: ctx.method,
      path: loggedPath(path, redact),
      route: route ?? null,
      status,
      durationMs: Math.round(elapsedMs * 1000) / 1000,
      keyId: ctx.state.client?.keyId ?? null,
    }
    if (lost) line.failure = 'ConnectionLost'
    else if (failure !== undefined) {
      line.failure = failure._tag
      if (failure._tag === 'Unauthorized') line.reason = failure.reason
      if (failure._tag === 'ForcedFailure') line.forced = true
      if (failure._tag === 'StoreUnavailable' || failure._tag === 'StoreFailed') line.detail = failure.detail
    }
    // Koa 3 reads an unset response header as undefined.
    const preferenceApplied = ctx.response.get('Preference-Applied') ?? ''
    if (preferenceApplied !== '') line.preferenceApplied = preferenceApplied
    // A fault of a sandbox's script or Prefer: which one; a connection reset sent no status at all.
    const { fault, statusNotSent } = ctx.state as ForcedFaultState
    if (fault !== undefined) {
      line.fault = fault
      line.forced = true
    }
    if (statusNotSent === true) line.status = null
    // A connection a fault reset sent no status: it is in the log, not among the answers counted.
    if (line.status !== null)
      metrics?.observe(ctx.method, route ?? 'unmatched', status, elapsedMs / 1000, failure?._tag === 'StoreUnavailable')
    // A store failure that no retry fixes is logged as an error, with what the operator must fix.
    if (failure?._tag === 'StoreFailed') logger.error(line, 'request')
    else logger.info(line, 'request')
  }
}
