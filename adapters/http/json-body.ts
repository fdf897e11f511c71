import { isUtf8 } from 'node:buffer'
import type { IncomingMessage } from 'node:http'
import * as E from 'fp-ts/Either'
import inflate from 'inflation'
import type { Middleware } from 'koa'
import getRawBody from 'raw-body'
import { sendFailure } from './error-response.js'
import { type HttpFailure, malformedJson, payloadTooLarge, unsupportedMediaType } from './http-failures.js'
import { parseJsonText } from './json-text.js'

/** Default largest request body accepted, in bytes (1 MiB; PETSTORE_MAX_BODY_BYTES). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** Deeper JSON than any pet needs is refused, so that nothing downstream recurses without bound. */
export const MAX_JSON_DEPTH = 64
const EMPTY_BODY = 'the request body is empty; send a JSON object'

/** Where jsonBody leaves the parsed body for the route. */
export interface JsonBodyState {
  body?: unknown
}

interface ReadError {
  readonly type?: string
  readonly status?: number
  readonly code?: string
}

/** What reading the body (raw-body, inflation, zlib) reports, as the failure a client is told about. */
const fromReadError = (error: unknown, limitBytes: number): HttpFailure => {
  const { type, status, code } = (typeof error === 'object' && error !== null ? error : {}) as ReadError
  if (type === 'entity.too.large') return payloadTooLarge(limitBytes)
  // inflation refuses an unknown Content-Encoding with status 415 and no type.
  if (status === 415) return unsupportedMediaType('unsupported Content-Encoding: send identity, gzip, deflate or br')
  // zlib's errors (Z_DATA_ERROR, ...; brotli's ERR__ERROR_FORMAT_...) mean the compressed body is corrupt.
  if (/^(?:Z_|ERR__ERROR_|ERR_BROTLI)/.test(code ?? '')) return malformedJson('the body could not be decoded with its Content-Encoding')
  return malformedJson('the body could not be read completely (aborted or wrong Content-Length)')
}

/**
 * The body's bytes, decoded from its Content-Encoding, at most `limit` of them (the limit applies
 * to the decoded body). A plain body must have the length its Content-Length announced.
 */
const readBytes = (request: IncomingMessage, limit: number): Promise<Buffer> => {
  const length = request.headers['content-length']
  const identity = (request.headers['content-encoding'] ?? 'identity') === 'identity'
  return getRawBody(inflate(request), { limit, ...(length !== undefined && identity ? { length: Number(length) } : {}) })
}

const isUtf8Charset = (charset: string): boolean => /^utf-?8$/i.test(charset)

/**
 * Reads a JSON request body into ctx.state.body, reading and parsing it once. Before reading it
 * insists on a body, on `application/json` (anything else is 415) and on UTF-8, the only charset
 * JSON has (RFC 8259 §8.1): bytes that are not UTF-8 are refused rather than replaced with U+FFFD.
 * The parse (json-text.ts) refuses `__proto__` keys, nesting deeper than MAX_JSON_DEPTH, and reads
 * no integer into a number whose literal was not one.
 */
export const jsonBody =
  (limitBytes: number): Middleware<JsonBodyState> =>
  async (ctx, next) => {
    const type = ctx.is('application/json')
    if (type === null || ctx.request.length === 0) return sendFailure(ctx, malformedJson(EMPTY_BODY))
    if (type === false) return sendFailure(ctx, unsupportedMediaType(`Content-Type must be application/json`))
    const charset = ctx.request.charset
    if (charset !== '' && !isUtf8Charset(charset)) return sendFailure(ctx, unsupportedMediaType('the JSON body must be encoded in UTF-8'))
    let bytes: Buffer
    try {
      bytes = await readBytes(ctx.req, limitBytes)
    } catch (error) {
      return sendFailure(ctx, fromReadError(error, limitBytes))
    }
    // An empty body can also arrive chunked, or compressed; it is only known once read.
    if (bytes.length === 0) return sendFailure(ctx, malformedJson(EMPTY_BODY))
    if (!isUtf8(bytes)) return sendFailure(ctx, malformedJson('the body is not valid UTF-8'))
    const parsed = parseJsonText(bytes.toString('utf8'), MAX_JSON_DEPTH)
    if (E.isLeft(parsed)) return sendFailure(ctx, malformedJson(parsed.left))
    ctx.state.body = parsed.right
    await next()
  }
