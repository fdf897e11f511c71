import type { RouterContext } from '@koa/router'
import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import type { AuthState } from './auth.js'
import { isAnsweredByServer } from './closing-connections.js'
import type { FailureState } from './error-response.js'
import type { Redact } from './key-redaction.js'
import type { RequestMetrics } from './metrics.js'
import type { RequestIdState } from './request-id.js'
import { type ConnectionEnded, type ExtraLogFields, requestLog } from './request-log-line.js'

/**
 * What an extension (extension.ts) tells a request's log line: fields spread over the line's own. A
 * `status` of null says that no status was sent (the extension broke the connection): the request
 * is then logged, and not counted among the answers.
 */
export interface LogFieldsState {
  logFields?: ExtraLogFields
}

export interface AccessLogOptions {
  readonly logger: Logger
  /** Requests counted for GET /metrics; none when omitted. */
  readonly metrics?: RequestMetrics
  /** Hides the configured API keys from the logged path. */
  readonly redact: Redact
}

/** What the middleware before and inside it leave for the line. */
type LoggedState = RequestIdState & AuthState & FailureState & LogFieldsState

/** The status logged and counted for a request whose connection ended before it had all arrived. */
const CONNECTION_LOST_STATUS = 499
const CONNECTION_LOST: ConnectionEnded = { _tag: 'ConnectionLost' }

/**
 * One log line when the response is decided (its shape: request-log-line.ts), with the fields an
 * extension adds (LogFieldsState), and the request counted in the metrics. It runs outside the error
 * boundary, so that it logs the answer the boundary gives.
 */
export const accessLog = ({ logger, metrics, redact }: AccessLogOptions): Middleware<LoggedState> => {
  const log = requestLog(logger, redact)
  return async (ctx, next) => {
    const started = performance.now()
    const path = ctx.path
    await next()
    // Unless the HTTP server itself answered it (a timeout, bytes that are not HTTP in its body),
    // ending the connection with that answer: then its log line is the server's.
    if (isAnsweredByServer(ctx.req)) return
    // The pattern of the route @koa/router matched (its public routeMatched and routerPath); undefined when none did.
    const { routeMatched, routerPath } = ctx as Partial<Pick<RouterContext, 'routeMatched' | 'routerPath'>>
    const route = routeMatched === true ? routerPath : undefined
    const failure = ctx.state.failure
    // The connection ended before the request had all arrived (the client gave up mid-upload): no
    // answer could be sent. Logged and counted as 499, nginx's status for a request the client closed.
    const lost = !ctx.req.complete && ctx.req.destroyed
    const status = lost ? CONNECTION_LOST_STATUS : ctx.status
    const elapsedMs = performance.now() - started
    const extra = ctx.state.logFields
    // A connection the extension broke sent no status: it is in the log, not among the answers counted.
    if (extra?.status !== null)
      metrics?.observe(ctx.method, route ?? 'unmatched', status, elapsedMs / 1000, failure?._tag === 'StoreUnavailable')
    log({
      requestId: ctx.state.requestId,
      method: ctx.method,
      path,
      route: route ?? null,
      status,
      elapsedMs,
      keyId: ctx.state.client?.keyId ?? null,
      failure: lost ? CONNECTION_LOST : failure,
      extra,
    })
  }
}
