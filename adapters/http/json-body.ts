import { isUtf8 } from 'node:buffer'
import { bodyParser } from '@koa/bodyparser'
import type { Middleware } from 'koa'
import { FailureSignal, sendFailure } from './error-response.js'
import { type HttpFailure, malformedJson, payloadTooLarge, unsupportedMediaType } from './http-failures.js'

/** Default largest request body accepted, in bytes (1 MiB; PETSTORE_MAX_BODY_BYTES). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

const MAX_PARSER_DETAIL = 120
/** Deeper JSON than any pet needs is refused, so that nothing downstream recurses without bound. */
export const MAX_JSON_DEPTH = 64
const EMPTY_BODY = 'the request body is empty; send a JSON object'

interface BodyParserError {
  readonly type?: string
  readonly status?: number
  readonly code?: string
}

/** The body parser (co-body, raw-body) reports problems by `type`; each becomes a client error. */
const fromParserError = (error: unknown, limitBytes: number): HttpFailure => {
  // The JSON parser (@hapi/bourne) throws a SyntaxError, also for a `__proto__` key it refuses.
  if (error instanceof SyntaxError) {
    return malformedJson(`the body is not valid JSON: ${error.message.slice(0, MAX_PARSER_DETAIL)}`)
  }
  const { type, status, code } = (typeof error === 'object' && error !== null ? error : {}) as BodyParserError
  if (type === 'entity.too.large') return payloadTooLarge(limitBytes)
  // inflation refuses an unknown Content-Encoding with status 415 and no type.
  if (status === 415) return unsupportedMediaType('unsupported Content-Encoding: send identity, gzip, deflate or br')
  // zlib's errors (Z_DATA_ERROR, ...; brotli's ERR__ERROR_FORMAT_...) mean the compressed body is corrupt.
  if (/^(?:Z_|ERR__ERROR_|ERR_BROTLI)/.test(code ?? '')) return malformedJson('the body could not be decoded with its Content-Encoding')
  return malformedJson('the body could not be read completely (aborted or wrong Content-Length)')
}

/** Whether `value` nests arrays or objects deeper than `max`, found without recursion. */
export const nestsDeeperThan = (value: unknown, max: number): boolean => {
  const pending: Array<readonly [unknown, number]> = [[value, 1]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next
    if (typeof node !== 'object' || node === null) continue
    if (depth > max) return true
    for (const child of Object.values(node)) pending.push([child, depth + 1])
  }
  return false
}

const isUtf8Charset = (charset: string): boolean => /^utf-?8$/i.test(charset)

/**
 * Reads a JSON request body into ctx.request.body. Before parsing it insists on a body, on
 * `application/json` (the parser alone would turn a text/plain body into `{}`) and on UTF-8, the
 * only charset JSON has (RFC 8259 §8.1).
 */
export const jsonBody = (limitBytes: number): Middleware => {
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limitBytes,
    jsonStrict: false,
    // Latin-1 maps every byte to one character and back, so the exact bytes sent can be recovered
    // and checked as UTF-8 below: the parser's own UTF-8 decoding would turn invalid bytes into
    // U+FFFD silently. JSON's structure is ASCII, so the parser's verdict (syntax, `__proto__`)
    // is the same for both decodings.
    encoding: 'latin1',
    onError: (error) => {
      throw new FailureSignal(fromParserError(error, limitBytes))
    },
  })
  return async (ctx, next) => {
    const type = ctx.is('application/json')
    if (type === null || ctx.request.length === 0) return sendFailure(ctx, malformedJson(EMPTY_BODY))
    if (type === false) {
      return sendFailure(ctx, unsupportedMediaType(`Content-Type must be application/json`))
    }
    const charset = ctx.request.charset
    if (charset !== '' && !isUtf8Charset(charset)) {
      return sendFailure(ctx, unsupportedMediaType('the JSON body must be encoded in UTF-8'))
    }
    // An empty body can also arrive with a length of 0 or chunked; it is only known once read.
    await parse(ctx, async () => {
      if (ctx.request.rawBody === '') return sendFailure(ctx, malformedJson(EMPTY_BODY))
      const bytes = Buffer.from(ctx.request.rawBody, 'latin1')
      if (!isUtf8(bytes)) return sendFailure(ctx, malformedJson('the body is not valid UTF-8'))
      ctx.request.body = JSON.parse(bytes.toString('utf8')) as unknown
      if (nestsDeeperThan(ctx.request.body, MAX_JSON_DEPTH)) {
        return sendFailure(ctx, malformedJson(`the body nests deeper than ${MAX_JSON_DEPTH} levels`))
      }
      await next()
    })
  }
}
