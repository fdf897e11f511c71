import type { OutgoingHttpHeaders } from 'node:http'
import * as t from 'io-ts'
import type { ParameterizedContext } from 'koa'
import { ruleCodec } from '../../src/domain/codec.js'
import { echoed, type FailureState, toErrorResponse } from '../http/error-response.js'
import { JSON_TYPE } from '../http/etag.js'
import { FORCED_STATUSES, forcedFailure, type ForcedStatus } from './failures.js'
import { given, HEADER_NAME, integerIn, isJsonObject, lowerCased } from './rule-values.js'

/** The Content-Type of an answer's `text` when its headers give none. */
const TEXT_TYPE = 'text/plain; charset=utf-8'

/** The statuses whose answers have no body (RFC 9110 §15.3.5, §15.3.6, §15.4.5): an answer of one with a body is refused. */
const BODILESS_STATUSES: ReadonlyArray<number> = [204, 205, 304]

/**
 * Headers a script may not set: the service frames the answer (its length, its encoding in
 * chunks) and keeps the connection, so that a scripted answer never breaks the exchange it is in.
 */
const FRAMING_HEADERS: ReadonlyArray<string> = ['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer']

/** A header value as HTTP/1.1 carries it (RFC 9110 §5.5): visible characters, spaces, tabs, and bytes above 0x7F (obs-text). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/** An answer header's value: a line, several lines of the same header, or null to remove one the service would send. */
type AnswerHeaderValue = string | ReadonlyArray<string> | null

const NOT_A_VALUE = 'must be a string, an array of strings (one line each), or null (to remove it)'

/** What is wrong with one header of `answer.headers`, named `name`. */
const headerProblem = (name: string, value: unknown): string | undefined => {
  if (!HEADER_NAME.test(name)) return `${echoed(JSON.stringify(name))} is not a header name`
  const lower = name.toLowerCase()
  if (FRAMING_HEADERS.includes(lower)) return `${lower} cannot be set: the service frames the answer and keeps the connection`
  if (value === null) return undefined
  const lines: ReadonlyArray<unknown> | undefined = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined
  if (lines === undefined || lines.length === 0 || lines.some((line) => typeof line !== 'string')) return `${echoed(name)}: ${NOT_A_VALUE}`
  return lines.every((line) => HEADER_VALUE.test(line as string))
    ? undefined
    : `${echoed(name)}: a header value holds no control character and nothing beyond U+00FF`
}

/** What is wrong with `answer.headers`: real header names, each once whatever its case, none that frames the answer, with values HTTP can carry. */
const headersProblem = (input: unknown): string | undefined => {
  if (!isJsonObject(input)) return 'must be an object of header names and their values'
  const seen = new Set<string>()
  for (const [name, value] of Object.entries(input)) {
    const problem = headerProblem(name, value)
    if (problem !== undefined) return problem
    if (seen.has(name.toLowerCase())) return `${echoed(name.toLowerCase())} is named twice (header names are case-insensitive)`
    seen.add(name.toLowerCase())
  }
  return undefined
}

/** A rule's scripted answer: the status, headers and body a request is answered, instead of its operation's. */
export const ScriptedAnswer = t.intersection([
  // Named for the message that refuses an `answer` which is not an object.
  t.type({ status: integerIn('AnswerStatus', 200, 599) }, 'an object with a status, and headers, body or text'),
  t.partial({
    headers: ruleCodec<Readonly<Record<string, AnswerHeaderValue>>>('AnswerHeaders', headersProblem),
    body: t.unknown,
    text: ruleCodec<string>('AnswerText', (input) => (typeof input === 'string' ? undefined : 'must be a string, sent as is')),
  }),
])
export type ScriptedAnswer = t.TypeOf<typeof ScriptedAnswer>

export const ANSWER_FIELDS: ReadonlyArray<string> = ['status', 'headers', 'body', 'text']

/** What is wrong with an answer whose fields are each right (at `at` in the script): how they go together. */
export const answerProblems = ({ status, headers, body, text }: ScriptedAnswer, at: string): ReadonlyArray<string> => {
  const bodiless = BODILESS_STATUSES.includes(status)
  return [
    ...(body !== undefined && text !== undefined ? [`${at}: body or text, not both`] : []),
    ...(bodiless && (body !== undefined || text !== undefined) ? [`${at}: a ${status} has no body`] : []),
    ...(bodiless && Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'content-type')
      ? [`${at}.headers: a ${status} has no body, so no content-type`]
      : []),
  ]
}

/** An answer with only its known fields, in one order, header names in lower case: what GET answers. */
export const normalizedAnswer = ({ status, headers, body, text }: ScriptedAnswer): ScriptedAnswer => ({
  status,
  ...given('headers', lowerCased(headers)),
  ...given('body', body),
  ...given('text', text),
})

const isFaultStatus = (status: number): status is ForcedStatus => (FORCED_STATUSES as ReadonlyArray<number>).includes(status)

/** The headers the service sends with a fault of `status` (`Retry-After` on 429 and 503, `RateLimit` on 429); none for another status. */
const faultHeadersOf = (status: number): Readonly<Record<string, string>> =>
  isFaultStatus(status) ? toErrorResponse(forcedFailure(status, 'script')).headers : {}

/**
 * Answers a request with a rule's `answer`, instead of what its operation would answer or answered.
 * Its headers start from those every answer carries (the request id, no sniffing, no caching, a
 * rate limit's), less anything the operation added when it ran first (`kept`: the headers before
 * it), and those the service sends with a fault of the same status (its Retry-After); then a
 * `body` is sent as JSON, a `text` as is (TEXT_TYPE unless the headers give a Content-Type),
 * neither as an empty body; then each of the answer's headers is set as given, or removed when
 * null. The service frames it (Content-Length), as any answer.
 */
export const sendAnswer = (ctx: ParameterizedContext<FailureState>, answer: ScriptedAnswer, kept?: OutgoingHttpHeaders): void => {
  if (kept !== undefined) {
    for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name)
    for (const [name, value] of Object.entries(kept)) if (value !== undefined) ctx.res.setHeader(name, value)
  }
  // The answer is the script's: no failure of the operation's is logged as the request's.
  delete ctx.state.failure
  ctx.status = answer.status
  ctx.set(faultHeadersOf(answer.status))
  const [content, type] =
    answer.body !== undefined
      ? [JSON.stringify(answer.body), JSON_TYPE]
      : answer.text !== undefined
        ? [answer.text, TEXT_TYPE]
        : ['', undefined]
  ctx.body = content
  // Koa gives a string body a type of its own guess: the answer's is the script's.
  ctx.remove('Content-Type')
  if (type !== undefined) ctx.set('Content-Type', type)
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    if (value === null) ctx.remove(name)
    else ctx.set(name, typeof value === 'string' ? value : [...value])
  }
}
