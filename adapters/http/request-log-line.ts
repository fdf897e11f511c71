import type { Logger } from 'pino'
import type { Failure } from './error-response.js'
import { CUT_MARK, type Redact } from './key-redaction.js'

/** Fields an extension adds to a request's line (LogFieldsState in access-log.ts), spread over its own. */
export type ExtraLogFields = Readonly<Record<string, string | number | boolean | null>>

/**
 * A request that got no answer of its own: its client gave up before it had all arrived
 * (ConnectionLost), or it arrived on a connection whose closing answer was decided (ConnectionClosing).
 */
export interface ConnectionEnded {
  readonly _tag: 'ConnectionLost' | 'ConnectionClosing'
}

/** What is known of a request once its answer is decided, whether the app's edge or the HTTP server decided it. */
export interface RequestOutcome {
  readonly requestId: string
  /** Null when the HTTP server failed the connection before a request began. */
  readonly method: string | null
  /** As sent, without the query; null when the HTTP server failed the connection before a request began. */
  readonly path: string | null
  /** The route pattern the router matched; null when none did or the app never saw the request. */
  readonly route: string | null
  /** Null when no status was sent. */
  readonly status: number | null
  /** From receiving the request to deciding its answer; unknown for the HTTP server's own answers. */
  readonly elapsedMs?: number
  /** The caller's key id; null without a valid key. */
  readonly keyId: string | null
  readonly failure?: Failure | ConnectionEnded | undefined
  readonly extra?: ExtraLogFields | undefined
}

/** The longest path a log line carries; a longer one is cut there and marked with `…`. */
const MAX_LOGGED_PATH = 200

/** The path as the client sent it (percent-escapes kept, no query, any API key redacted), bounded for the log. */
export const loggedPath = (sent: string, redact: Redact): string => {
  const path = redact(sent)
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}${CUT_MARK}` : path
}

/** A failure's tag as logged: an extension's answer by its own name. */
const failureTag = (failure: Failure | ConnectionEnded): string =>
  failure._tag === 'ExtensionFailure' ? failure.answer.name : failure._tag

/**
 * The one shape of a request's log line (docs/guides/logs.md), written by the app's edge
 * (access-log.ts) and by the HTTP server for the answers it gives itself (http-server.ts): request
 * id, method, path (redacted, bounded), route pattern, status, duration in ms to the µs, key id and,
 * for failures, their tag, for a 401 why (`reason`), for store failures their detail; then what an
 * extension adds. At `error` level for a store failure no retry fixes (StoreFailed), so that alerts
 * on errors catch it; `info` otherwise. Never a header value, a key, a query or a body.
 */
export const requestLog =
  (logger: Logger, redact: Redact) =>
  ({ requestId, method, path, route, status, elapsedMs, keyId, failure, extra }: RequestOutcome): void => {
    const line: Record<string, unknown> = {
      requestId,
      method,
      path: path === null ? null : loggedPath(path, redact),
      route,
      status,
    }
    if (elapsedMs !== undefined) line.durationMs = Math.round(elapsedMs * 1000) / 1000
    line.keyId = keyId
    if (failure !== undefined) {
      line.failure = failureTag(failure)
      if (failure._tag === 'Unauthorized') line.reason = failure.reason
      if (failure._tag === 'StoreUnavailable' || failure._tag === 'StoreFailed') line.detail = failure.detail
    }
    Object.assign(line, extra)
    if (failure?._tag === 'StoreFailed') logger.error(line, 'request')
    else logger.info(line, 'request')
  }
