import type { IncomingMessage } from 'node:http'
import { finished, Writable } from 'node:stream'
import { bodyParser } from '@koa/bodyparser'
import type { Context, Middleware } from 'koa'
import { isAnsweredByServer } from './closing-connections.js'
import { type FailureState, sendFailure } from './error-response.js'
import { type HttpFailure, malformedJson, payloadTooLarge, unsupportedMediaType } from './http-failures.js'
import { nestsDeeperThan, withRoundedIntegersAsText } from './json-checks.js'

/** Deeper JSON than any pet needs is refused, so that nothing downstream recurses without bound. */
const MAX_JSON_DEPTH = 64

/** Where jsonBody leaves the parsed and checked body for the route. */
export interface JsonBodyState extends FailureState {
  body?: unknown
}

interface ReadError {
  readonly type?: string
  readonly status?: number
  readonly code?: string
  readonly message?: string
}

/**
 * The part of a JSON.parse message that quotes the body around the error (V8: `Unexpected token 'x',
 * ..."ten chars"... is not valid JSON`): cut out of what the client is told, since a cut of the
 * body can hold part of an API key, which no redaction could then recognize.
 */
const QUOTED_INPUT = /, (?:\.\.\.)?"[^]*$/

/** What @koa/bodyparser reports (co-body, raw-body, inflation, zlib, JSON.parse), as the failure a client is told about. */
const fromReadError = (error: unknown, limitBytes: number): HttpFailure => {
  const { type, status, code, message = '' } = (typeof error === 'object' && error !== null ? error : {}) as ReadError
  if (type === 'entity.too.large') return payloadTooLarge(limitBytes)
  // inflation refuses an unknown Content-Encoding with status 415 and no type.
  if (status === 415) return unsupportedMediaType('unsupported Content-Encoding: send identity, gzip, deflate or br')
  // zlib's errors (Z_DATA_ERROR, ...; brotli's ERR__ERROR_FORMAT_...) mean the compressed body is corrupt.
  if (/^(?:Z_|ERR__ERROR_|ERR_BROTLI)/.test(code ?? '')) return malformedJson('the body could not be decoded with its Content-Encoding')
  if (error instanceof SyntaxError) {
    // @hapi/bourne, which co-body parses with, refuses a `__proto__` key at any depth, however escaped.
    if (message.includes('prototype')) return malformedJson('the body is not valid JSON: a "__proto__" key is refused')
    return malformedJson(`the body is not valid JSON: ${message.replace(QUOTED_INPUT, '')}`)
  }
  return malformedJson('the body could not be read completely (aborted or wrong Content-Length)')
}

const isUtf8Charset = (charset: string): boolean => /^utf-?8$/i.test(charset)

/**
 * The body parser's decoder (inflation) reads a compressed body through a pipe from the request,
 * and a pipe passes no failure on: when the request breaks off (its client gives up mid-body), the
 * decoder would wait for the rest for ever, and the request with it, never answered nor logged. What
 * the request is piped into is destroyed with it, so that the parser fails as on a plain body.
 */
const destroyingPipes = (request: IncomingMessage): void => {
  const pipe = request.pipe.bind(request)
  request.pipe = <T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T => {
    finished(request, (error) => {
      if (error !== undefined && error !== null && destination instanceof Writable) destination.destroy(error)
    })
    return pipe(destination, options)
  }
}

/**
 * Before the body is read: there is one, it is `application/json` (anything else is 415), and its
 * charset is UTF-8, the only one JSON has (RFC 8259 §8.1). A content coding's name is
 * case-insensitive (RFC 9110 §8.4.1) while the body parser's decoder (inflation) compares it exactly:
 * it is given the name in lower case, and the request's breaking off (destroyingPipes).
 */
const acceptJson =
  (empty: string): Middleware<JsonBodyState> =>
  async (ctx, next) => {
    const type = ctx.is('application/json')
    if (type === null || ctx.request.length === 0) return sendFailure(ctx, malformedJson(empty))
    if (type === false) return sendFailure(ctx, unsupportedMediaType(`Content-Type must be application/json`))
    const charset = ctx.request.charset
    if (charset !== '' && !isUtf8Charset(charset)) return sendFailure(ctx, unsupportedMediaType('the JSON body must be encoded in UTF-8'))
    const coding = ctx.req.headers['content-encoding']
    if (coding !== undefined) {
      ctx.req.headers['content-encoding'] = coding.trim().toLowerCase()
      destroyingPipes(ctx.req)
    }
    await next()
  }

/** A digit followed by a point or an exponent: the text may hold a number literal that is not an integer. */
const FRACTION_OR_EXPONENT = /\d[.eE]/

/** U+FFFD written as an escape, in either case (or a backslash escaped before such text, which the walk tells apart). */
const ESCAPED_REPLACEMENT = /\\u[fF][fF][fF][dD]/

/** Whether a parsed JSON value holds U+FFFD in any string, member names included. */
const holdsReplacement = (value: unknown): boolean => {
  if (typeof value === 'string') return value.includes('\uFFFD')
  if (typeof value !== 'object' || value === null) return false
  return Object.entries(value).some(([name, member]) => name.includes('\uFFFD') || holdsReplacement(member))
}

/** Why a body holding U+FFFD is refused, whether written as the character or as its escape. */
const REPLACEMENT_REFUSED = 'the body is not valid UTF-8 (or holds U+FFFD, which stands for bytes that are not)'

/**
 * After the parse: what JSON.parse accepts but the service refuses. The text decoder replaces bytes
 * that are not UTF-8 with U+FFFD, so a body holding U+FFFD is refused, written as the character or
 * as its escape alike: the replacement cannot be told apart from bytes that were never text
 * (docs/adr/0401-koa-bodyparser-reads-the-body-the-refusals-are-checks-around-it.md). Nesting deeper
 * than MAX_JSON_DEPTH is refused. A number the parse rounds to an integer it does not denote is handed
 * on as the text the client wrote, at any depth, for the domain's integer rule to judge.
 */
const checkJson =
  (empty: string): Middleware<JsonBodyState> =>
  async (ctx, next) => {
    // The parser's onError has answered already; or the HTTP server has, while the body arrived (a
    // 408): the request is not carried out, even though the rest of its body came after.
    if (ctx.state.failure !== undefined || isAnsweredByServer(ctx.req)) return
    const text = ctx.request.rawBody
    // An empty body can also arrive chunked, or compressed; it is only known once read.
    if (text === '' || text === undefined) return sendFailure(ctx, malformedJson(empty))
    if (text.includes('\uFFFD')) return sendFailure(ctx, malformedJson(REPLACEMENT_REFUSED))
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return sendFailure(ctx, malformedJson(`the body nests deeper than ${MAX_JSON_DEPTH} levels`))
    if (ESCAPED_REPLACEMENT.test(text) && holdsReplacement(ctx.request.body)) return sendFailure(ctx, malformedJson(REPLACEMENT_REFUSED))
    const exact = FRACTION_OR_EXPONENT.test(text) ? withRoundedIntegersAsText(text) : undefined
    ctx.state.body = exact === undefined ? ctx.request.body : exact
    await next()
  }

/** The first middleware of each jsonBody: a route that holds one reads its request's body. */
const bodyReaders = new WeakSet<object>()

/** Whether the middleware begins reading the request's body (body-received.ts leaves the body to it). */
export const readsBody = (middleware: object): boolean => bodyReaders.has(middleware)

/**
 * The middleware that reads a JSON request body into ctx.state.body, read and parsed once, by
 * @koa/bodyparser: at most `limitBytes` of it (after decoding its Content-Encoding: identity, gzip,
 * deflate or br), with the checks placed around it. `expected` names what the route takes, for the
 * message that answers an empty body.
 */
export const jsonBody = (limitBytes: number, expected: string): ReadonlyArray<Middleware<JsonBodyState>> => {
  const empty = `the request body is empty; send ${expected}`
  const accept = acceptJson(empty)
  bodyReaders.add(accept)
  return [
    accept,
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: limitBytes,
      // Any JSON value: what is not an object is the domain's to refuse, with its own message.
      jsonStrict: false,
      onError: (error: Error, ctx: Context) => sendFailure(ctx, fromReadError(error, limitBytes)),
    }),
    checkJson(empty),
  ]
}
