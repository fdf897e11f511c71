import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type Koa from 'koa'
import type { Logger } from 'pino'
import { requestIdOf } from './request-id.js'
import { rawHeadLines } from './raw-head.js'
import { type ErrorResponse, toErrorResponse } from './error-response.js'
import type { Redact } from './key-redaction.js'
import { requestsInFlight } from './requests-in-flight.js'
import { isClosing, markAnsweredByServer, markClosing } from './closing-connections.js'
import { endLingering } from './lingering-close.js'
import { expectationFailed, type HttpFailure, tunnelRefused } from './http-failures.js'
import { failureOf, headFailureOf, MAX_HEADER_FIELDS } from './request-head.js'
import { type ConnectionEnded, requestLog } from './request-log-line.js'

/** Limits that keep slow or abusive clients from holding the server (documented in docs/guides/production.md). */
export interface ServerLimits {
  /** Time to receive all request headers. */
  readonly headersTimeoutMs: number
  /** Time to receive the whole request, body included: a stalled upload is cut off with 408. */
  readonly requestTimeoutMs: number
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutMs: number
  /** How often Node checks the two timeouts above; tests lower it. */
  readonly connectionsCheckingIntervalMs: number
  /** The longest a connection the server answered itself and ended stays open for its client to close it. */
  readonly lingerMs: number
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  connectionsCheckingIntervalMs: 1_000,
  lingerMs: 5_000,
}

const CONNECTION_CLOSING: ConnectionEnded = { _tag: 'ConnectionClosing' }

/** The headers of an answer Koa never sees, beside the failure's own: the same as on every answer, and a close. */
const outsideHeaders = (json: string, requestId: string, { headers }: ErrorResponse): Record<string, string> => ({
  'Content-Type': 'application/json; charset=utf-8',
  'Content-Length': String(Buffer.byteLength(json)),
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Request-Id': requestId,
  ...headers,
  Connection: 'close',
})

/** A whole HTTP/1.1 response for a request Koa never saw: the same Error body, then the connection closes. */
const rawErrorResponse = (answer: ErrorResponse, requestId: string): string => {
  const json = JSON.stringify(answer.body)
  return [...rawHeadLines(answer.body.status, outsideHeaders(json, requestId, answer)), '', json].join('\r\n')
}

/** The id of a request Koa never saw: its own X-Request-Id when sane and free of keys, as on every other answer. */
const requestIdFrom = (request: IncomingMessage, redact: Redact): string => {
  const incoming = request.headers['x-request-id']
  return requestIdOf(typeof incoming === 'string' ? incoming : '', redact)
}

/**
 * The HTTP server around the Koa app, with timeouts set, and Node's own answers given as JSON Errors
 * with a log line, whenever a response can still be written:
 * - timeouts, oversized headers and unparseable requests (408, 431, 400 bad_request);
 * - an HTTP/1.1 request without Host, and any request with more than one Host line or a Host that is
 *   not `host[:port]` (400 bad_request, RFC 9112 §3.2), which Node would answer with an empty body or
 *   not refuse at all;
 * - an `Expect` other than `100-continue` (417 expectation_failed), which Node would answer bare;
 * - CONNECT (405 method_not_allowed: this is no proxy), whose connection Node would close unanswered.
 * Each closes the connection. A request arriving once its connection's closing answer is decided
 * (one of these, or one of the app's) is neither carried out nor answered: Node would send nothing
 * of it. It is logged with `status: null` and `failure: ConnectionClosing` (closing-connections.ts).
 * A request answered before its body had all arrived gets no second answer: Node reads the rest of
 * the body and discards it, and a timeout or a parse failure of that rest just closes the
 * connection. A client that half-closes its connection after sending a request
 * (a compressed body, inflated asynchronously, is still being read then) gets its answer before
 * the connection closes: Node would otherwise abort the request and close at once.
 */
interface HttpServerOptions {
  readonly logger: Logger
  /** Hides the configured API keys from the request ids and paths of the lines logged here. */
  readonly redact: Redact
  readonly limits?: ServerLimits
}

export const createHttpServer = (app: Koa, { logger, redact, limits = DEFAULT_SERVER_LIMITS }: HttpServerOptions): Server => {
  const handle = app.callback()
  const logRequest = requestLog(logger, redact)
  /** The line of a request the app never carries out, in the shape of the edge's, so that every request is in the log. */
  const log = (
    requestId: string,
    request: IncomingMessage | undefined,
    failure: HttpFailure | ConnectionEnded,
    status: number | null,
  ): void =>
    logRequest({
      requestId,
      method: request?.method ?? null,
      path: request?.url === undefined ? null : (request.url.split('?')[0] ?? ''),
      route: null,
      status,
      keyId: null,
      failure,
    })
  const answer = (request: IncomingMessage, response: ServerResponse, failure: HttpFailure): void => {
    markClosing(request.socket)
    const failed = toErrorResponse(failure)
    const requestId = requestIdFrom(request, redact)
    const json = JSON.stringify(failed.body)
    response.writeHead(failed.body.status, outsideHeaders(json, requestId, failed))
    response.end(json)
    log(requestId, request, failure, failed.body.status)
  }
  /** A request arriving once its connection's closing answer is decided: neither carried out nor answered. */
  const notCarriedOut = (request: IncomingMessage): void => {
    // Its body, if any, is read and discarded, as Node discards the body of a request answered.
    request.resume()
    log(requestIdFrom(request, redact), request, CONNECTION_CLOSING, null)
  }
  const inFlight = requestsInFlight()
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
      // Checked below, so that the answer is a JSON Error and is logged.
      requireHostHeader: false,
    },
    (request, response) => {
      if (isClosing(request.socket)) return notCarriedOut(request)
      inFlight.track(request, response)
      const headFailure = headFailureOf(request)
      if (headFailure !== undefined) return answer(request, response, headFailure)
      // Koa's handler answers its own failures; nothing is left for the returned promise to report.
      void handle(request, response)
    },
  )
  // Node's own switch for a request whose client half-closed (not an option of createServer): the
  // request is answered, then the connection ends.
  ;(server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
  server.maxHeadersCount = MAX_HEADER_FIELDS + 1
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
    isClosing(request.socket) ? notCarriedOut(request) : answer(request, response, expectationFailed),
  )
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    if (isClosing(socket)) return notCarriedOut(request)
    markClosing(socket)
    const requestId = requestIdFrom(request, redact)
    const failed = toErrorResponse(tunnelRefused)
    endLingering(socket, rawErrorResponse(failed, requestId), limits.lingerMs)
    // Node's parser is detached from the connection: what its client sends is discarded here.
    socket.resume()
    log(requestId, request, tunnelRefused, failed.body.status)
  })
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection answered already, or about to be: Node's parser reports each later read of a
    // failed connection again, and a client may end its side after the answer, mid-request.
    if (isClosing(socket)) return
    // A connection reset by the client: nothing can be said any more. Nor after an answer given
    // before its request's body had all arrived (a 401, a 415): the rest of that body timing out or
    // breaking the parser must not be answered a second time.
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight.answeredEarly(socket)) return void socket.destroy()
    const failure = failureOf(error)
    // The request whose body was still arriving when the connection failed, which Koa has begun.
    const [request, response] = inFlight.cutShort(socket) ?? []
    // Its client ended its side mid-body: it gave up. Not answered; the edge logs it (as lost).
    if (request !== undefined && error.code === 'HPE_INVALID_EOF_STATE') return void socket.destroy()
    // An answer of Koa's is being written: no other answer fits any more.
    if (response?.headersSent === true) return void socket.destroy()
    markClosing(socket)
    const sendFailure = (): void => {
      if (!socket.writable) return
      const failed = toErrorResponse(failure)
      // The id Koa gave the request cut short, so that its answer, its log line and its client agree.
      const requestId = String(response?.getHeader('X-Request-Id') ?? randomUUID())
      endLingering(socket, rawErrorResponse(failed, requestId), limits.lingerMs)
      // Its one line: the app neither carries out nor logs a request answered here.
      if (request !== undefined) markAnsweredByServer(request)
      log(requestId, request, failure, failed.body.status)
    }
    // Requests received whole before the bad bytes (a create, pipelined GETs) are answered first:
    // a client must never be told 400 about a request that was carried out.
    if (request === undefined) return inFlight.afterAnswers(socket, sendFailure)
    sendFailure()
  })
  return server
}
