import type { IncomingMessage } from 'node:http'
import {
  type HttpFailure,
  headersTooLarge,
  invalidHost,
  malformedRequest,
  missingHost,
  requestTimeout,
  tooManyHeaderFields,
} from './http-failures.js'

/** What Node's parser reports, as the failure a client is told about. */
export const failureOf = (error: NodeJS.ErrnoException): HttpFailure => {
  if (error.code === 'HPE_HEADER_OVERFLOW') return headersTooLarge
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT') return requestTimeout
  return malformedRequest
}

/** RFC 3986's host (an IP literal in brackets, or a name of its characters) and an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::[0-9]*)?$/

/**
 * The most header fields a request may have: Node's default count. Node keeps only the first
 * `maxHeadersCount` and drops the rest unseen, so the server keeps one more, and a request that has
 * it is refused: a second Authorization or Host after 2,000 other fields must not pass unseen.
 */
export const MAX_HEADER_FIELDS = 2000

/**
 * Why the request's head is refused, or undefined when it is acceptable: too many header fields
 * (431), or a Host that is missing, repeated or not `host[:port]` (400, RFC 9112 §3.2).
 */
export const headFailureOf = (request: IncomingMessage): HttpFailure | undefined => {
  const lines = request.rawHeaders
  if (lines.length > 2 * MAX_HEADER_FIELDS) return tooManyHeaderFields(MAX_HEADER_FIELDS)
  let hosts = 0
  for (let index = 0; index < lines.length; index += 2) if (lines[index]?.length === 4 && lines[index]?.toLowerCase() === 'host') hosts += 1
  const host = request.headers.host
  if (host === undefined) return request.httpVersion === '1.1' ? missingHost : undefined
  if (hosts > 1) return invalidHost('the request has more than one Host header')
  if (!HOST.test(host)) return invalidHost('the Host header is not a valid host[:port]')
  return undefined
}
