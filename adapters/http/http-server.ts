import { randomUUID } from 'node:crypto'
import { createServer, type Server, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type Koa from 'koa'
import type { Logger } from 'pino'
import { type ErrorBody, toErrorResponse } from './error-response.js'
import { type HttpFailure, headersTooLarge, malformedRequest, requestTimeout } from './http-failures.js'

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
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  connectionsCheckingIntervalMs: 1_000,
}

/** What Node's parser reports, as the failure a client is told about. */
const failureOf = (error: NodeJS.ErrnoException): HttpFailure => {
  if (error.code === 'HPE_HEADER_OVERFLOW') return headersTooLarge
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT') return requestTimeout
  return malformedRequest
}

/** Node keeps the response being written on the socket; once its headers are out, no other answer fits. */
const responseStarted = (socket: Duplex): boolean =>
  (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true

/** A whole HTTP/1.1 response for a request Koa never saw: the same Error body, then the connection closes. */
export const rawErrorResponse = (body: ErrorBody, requestId: string): string => {
  const json = JSON.stringify(body)
  return [
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    json,
  ].join('\r\n')
}

/**
 * The HTTP server around the Koa app, with timeouts set, and Node's own answers (timeouts,
 * oversized headers, unparseable requests) given as JSON Errors whenever a response can still be written.
 */
export const createHttpServer = (app: Koa, logger: Logger, limits: ServerLimits = DEFAULT_SERVER_LIMITS): Server => {
  const handle = app.callback()
  // Koa's handler answers its own failures; nothing is left for the returned promise to report.
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
    },
    (request, response) => void handle(request, response),
  )
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already started, or a connection reset by the client: nothing can be said any more.
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy()
      return
    }
    const failure = failureOf(error)
    const { body } = toErrorResponse(failure)
    const requestId = randomUUID()
    socket.end(rawErrorResponse(body, requestId))
    // The same line the edge writes for requests Koa answers, so that every answer is in the log.
    logger.info({ requestId, method: null, route: null, status: body.status, keyId: null, failure: failure._tag }, 'request')
  })
  return server
}
