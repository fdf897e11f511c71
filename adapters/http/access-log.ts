import type { RouterContext } from '@koa/router'
import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import type { AuthState } from './auth.js'
import { isAnsweredByServer } from './closing-connections.js'
import type { FailureState } from './error-response.js'
import { CUT_MARK, type Redact } from './key-redaction.js'
import type { RequestMetrics } from './metrics.js'
import type { RequestIdState } from './request-id.js'

/**
 * What an extension (extension.ts) tells a request's log line: fields spread over the line's own. A
 * `status` of null says that no status was sent (the extension broke the connection): the request
 * is then logged, and not counted among the answers.
 */
export interface LogFieldsState {
  logFields?: Readonly<Record<string, string | number | boolean | null>>
}

export interface AccessLogOptions {
  readonly logger: Logger
  /** Requests counted for GET /metrics; none when omitted. */
  readonly metrics?: RequestMetrics
  /** Hides the configured API keys from the logged path. */
  readonly redact: Redact
}

/** The status logged and counted for a request whose connection ended before it had all arrived. */
const CONNECTION_LOST_STATUS = 499

/** The longest path a log line carries; a longer one is cut there and marked with `…`. */
const MAX_LOGGED_PATH = 200

/** The path as the client sent it (percent-escapes kept, no query, any API key redacted), bounded for the log. */
export const loggedPath = (sent: string, redact: Redact): string => {
  const path = redact(sent)
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}${CUT_MARK}` : path
}

/**
 * One JSON log line when the response is decided, and the request counted in the metrics: method,
 * path (without the query, bounded), route pattern, status, duration, request id, the caller's key
 * id and, for failures, their tag, for a 401 why (`reason`: missing, malformed or invalid), and for
 * store failures their detail. At `error` level for a store failure no retry fixes (StoreFailed), so
 * that alerts on errors catch it; `info` otherwise. Never a header value, a key (one in the path is
 * redacted), a query or a body; and the fields an extension adds (LogFieldsState). It runs outside
 * the error boundary, so that it logs the answer the boundary gives.
 */
export const accessLog =
  ({ logger, metrics, redact }: AccessLogOptions): Middleware<RequestIdState & AuthState & FailureState & LogFieldsState> =>
  async (ctx, next) => {
    const started = performance.now()
    const path = ctx.path
    await next()
    // The pattern of the route @koa/router matched (its public routeMatched and routerPath); undefined when none did.
    const { routeMatched, routerPath } = ctx as Partial<Pick<RouterContext, 'routeMatched' | 'routerPath'>>
    const route = routeMatched === true ? routerPath : undefined
    const failure = ctx.state.failure
    // The connection ended before the request had all arrived (the client gave up mid-upload): no
    // answer could be sent. Logged and counted as 499, nginx's status for a request the client closed.
    const lost = !ctx.req.complete && ctx.req.destroyed
    // Unless the HTTP server itself answered it (a timeout, bytes that are not HTTP in its body),
    // ending the connection with that answer: then its log line is the server's.
    if (isAnsweredByServer(ctx.req)) return
    const status = lost ? CONNECTION_LOST_STATUS : ctx.status
    const elapsedMs = performance.now() - started
    const line: Record<string, unknown> = {
      requestId: ctx.state.requestId,
      method: ctx.method,
      path: loggedPath(path, redact),
      route: route ?? null,
      status,
      durationMs: Math.round(elapsedMs * 1000) / 1000,
      keyId: ctx.state.client?.keyId ?? null,
    }
    if (lost) line.failure = 'ConnectionLost'
    else if (failure !== undefined) {
      line.failure = failure._tag === 'ExtensionFailure' ? failure.answer.name : failure._tag
      if (failure._tag === 'Unauthorized') line.reason = failure.reason
      if (failure._tag === 'StoreUnavailable' || failure._tag === 'StoreFailed') line.detail = failure.detail
    }
    Object.assign(line, ctx.state.logFields)
    // A connection the extension broke sent no status: it is in the log, not among the answers counted.
    if (line.status !== null)
      metrics?.observe(ctx.method, route ?? 'unmatched', status, elapsedMs / 1000, failure?._tag === 'StoreUnavailable')
    // A store failure that no retry fixes is logged as an error, with what the operator must fix.
    if (failure?._tag === 'StoreFailed') logger.error(line, 'request')
    else logger.info(line, 'request')
  }
