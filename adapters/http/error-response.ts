import type { Context } from 'koa'
import type { DomainError } from '../../src/domain/errors.js'
import type { HttpFailure } from './http-failures.js'
import { CUT_MARK } from './key-redaction.js'

export type Failure = DomainError | HttpFailure

/** The spec's Error object (§2): exactly these three fields. */
interface ErrorBody {
  /** One of ErrorCode, or of the codes an extension's part of the contract lists. */
  readonly code: string
  readonly message: string
  readonly status: number
}

/** The closed set of `code` values, listed with their meaning in the Error schema of docs/openapi.yaml. */
type ErrorCode =
  | 'invalid_body'
  | 'invalid_json'
  | 'invalid_parameter'
  | 'unauthorized'
  | 'not_found'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'internal_error'
  | 'service_unavailable'
  | 'rate_limited'
  | 'idempotency_key_mismatch'
  | 'idempotency_key_in_use'
  | 'request_timeout'
  | 'headers_too_large'
  | 'bad_request'
  | 'invalid_request'
  | 'expectation_failed'
  | 'insufficient_storage'

export interface ErrorResponse {
  readonly body: ErrorBody
  readonly headers: Readonly<Record<string, string>>
}

const REALM = 'petstore'
/** Seconds a client should wait before retrying when the store is unavailable (503). */
export const RETRY_AFTER_SECONDS = 5
/** Seconds a client should wait before retrying while its Idempotency-Key is in use (409): a create takes milliseconds. */
export const KEY_IN_USE_RETRY_AFTER_SECONDS = 1

/** The most problems one message names; it counts the rest, so that its size is bounded whatever the input. */
export const MAX_NAMED_PROBLEMS = 5
/** The most characters a message repeats of a name the client chose (a parameter, a field, a path). */
export const MAX_ECHOED_CHARS = 100

/**
 * A name the client chose, as a message repeats it: at most MAX_ECHOED_CHARS, marked with `…`
 * (CUT_MARK) when cut. The cut comes before redaction, which sees the mark: a key it went through
 * is redacted as whole ones are (key-redaction.ts).
 */
export const echoed = (name: string): string => {
  if (name.length <= MAX_ECHOED_CHARS) return name
  // Never half of a surrogate pair: the message stays well-formed text.
  const end = /[\uD800-\uDBFF]/.test(name.charAt(MAX_ECHOED_CHARS - 1)) ? MAX_ECHOED_CHARS - 1 : MAX_ECHOED_CHARS
  return `${name.slice(0, end)}${CUT_MARK}`
}

/** The first MAX_NAMED_PROBLEMS problems, then how many more there were. */
export const listed = (problems: ReadonlyArray<string>): string => {
  const named = problems.slice(0, MAX_NAMED_PROBLEMS).join('; ')
  const more = problems.length - MAX_NAMED_PROBLEMS
  return more > 0 ? `${named}; and ${more} more problem${more === 1 ? '' : 's'}` : named
}

const response = (status: number, code: ErrorCode, message: string, headers: Readonly<Record<string, string>> = {}): ErrorResponse => ({
  body: { code, message, status },
  headers,
})

const UNAUTHORIZED_MESSAGES = {
  missing: "missing credentials: send 'Authorization: Bearer <API key>'",
  malformed: "malformed Authorization header: expected 'Bearer <API key>'",
  invalid: 'the API key is not valid',
} as const

/** The only place that decides statuses, codes and messages of errors. */
export const toErrorResponse = (failure: Failure): ErrorResponse => {
  switch (failure._tag) {
    case 'InvalidPet':
      return response(400, 'invalid_body', `invalid pet: ${listed(failure.problems)}`)
    case 'InvalidParameter':
      return response(400, 'invalid_parameter', listed(failure.problems))
    case 'PetNotFound':
      return response(404, 'not_found', `no pet has id ${failure.id}`)
    case 'Unauthorized':
      return response(401, 'unauthorized', UNAUTHORIZED_MESSAGES[failure.reason], {
        'WWW-Authenticate': failure.reason === 'missing' ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="invalid_token"`,
      })
    case 'StoreUnavailable':
      return response(503, 'service_unavailable', 'the pet store is temporarily unavailable; retry later', {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      })
    // Only a bounded data set fails so (an extension's, which may answer it in its own words).
    case 'StoreFull':
      return response(
        507,
        'insufficient_storage',
        `the data set holds as many pets and Idempotency-Key records as it may (${failure.limitBytes} bytes of them): nothing was stored`,
      )
    case 'IdempotencyKeyMismatch':
      return response(422, 'idempotency_key_mismatch', 'this Idempotency-Key was used with a different request body; use a new key')
    case 'IdempotencyKeyInUse':
      return response(409, 'idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed; retry later', {
        'Retry-After': String(KEY_IN_USE_RETRY_AFTER_SECONDS),
      })
    case 'MalformedJson':
      return response(400, 'invalid_json', failure.problem)
    case 'UnsupportedMediaType':
      return response(415, 'unsupported_media_type', failure.problem)
    case 'PayloadTooLarge':
      return response(413, 'payload_too_large', `the request body exceeds the limit of ${failure.limitBytes} bytes`)
    case 'RouteNotFound':
      return response(404, 'route_not_found', `no route for ${failure.method} ${echoed(failure.path)}`)
    case 'MethodNotAllowed':
      return response(405, 'method_not_allowed', `${failure.method} is not allowed here; use ${failure.allow.join(', ')}`, {
        Allow: failure.allow.join(', '),
      })
    // A store failure no retry fixes is answered like any unexpected error: its detail is for the log.
    case 'StoreFailed':
    case 'InternalError':
      return response(500, 'internal_error', 'an unexpected error occurred; it has been logged')
    case 'RateLimited':
      return response(429, 'rate_limited', `too many requests for this API key; retry in ${failure.retryAfterSeconds} s`, {
        'Retry-After': String(failure.retryAfterSeconds),
      })
    case 'RequestTimeout':
      return response(408, 'request_timeout', 'the request was not received in time; the connection is closed')
    case 'HeadersTooLarge':
      return response(431, 'headers_too_large', 'the request headers are too large')
    case 'TooManyHeaderFields':
      return response(431, 'headers_too_large', `the request has more than ${failure.max} header fields`)
    case 'MalformedRequest':
      return response(400, 'bad_request', 'the request is not valid HTTP/1.1')
    case 'MissingHost':
      return response(400, 'bad_request', 'the request has no Host header, which HTTP/1.1 requires')
    case 'InvalidHost':
      return response(400, 'bad_request', failure.problem)
    case 'ExpectationFailed':
      return response(417, 'expectation_failed', "the only Expect this service meets is '100-continue'")
    case 'TunnelRefused':
      // RFC 9110 §15.5.6: a 405 lists what the target allows; a tunnel's target allows nothing here.
      return response(405, 'method_not_allowed', 'CONNECT is not supported: this service is not a proxy', { Allow: '' })
    case 'DuplicateAuthorization':
      // RFC 6750 §3.1: a request that is malformed as to its credentials is invalid_request, 400.
      return response(400, 'invalid_request', "more than one Authorization header: send exactly one, 'Authorization: Bearer <API key>'", {
        'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_request"`,
      })
    case 'ExtensionFailure': {
      const { status, code, message, headers } = failure.answer
      return { body: { code, message, status }, headers: headers ?? {} }
    }
  }
}

/** Where sendFailure leaves the failure for the request log, which writes what clients never see. */
export interface FailureState {
  failure?: Failure
}

/** Writes a failure as the response: status, Error body, its headers, and never a cached copy. */
export const sendFailure = (ctx: Context, failure: Failure): void => {
  ;(ctx.state as FailureState).failure = failure
  const { body, headers } = toErrorResponse(failure)
  ctx.status = body.status
  ctx.set(headers)
  ctx.set('Cache-Control', 'no-store')
  ctx.body = body
}
