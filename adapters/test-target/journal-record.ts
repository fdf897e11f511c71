import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { authorizationValues } from '../http/auth.js'
import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'
import { authorizationForm } from './authorization-form.js'
import { type KeptBody, keptFromBytes, keptFromText, type TappedBody } from './journal-body.js'
import type { HeldRequest, JournalMessage, JournalRecord, JournalState, SettledEntry } from './journal-entry.js'
import type { Operation } from './fault-rule.js'

/** The most of a request's or an answer's body an entry keeps. */
export const JOURNAL_BODY_BYTES = 4096

/** The most header fields an entry keeps of a request, and of an answer: the first, in the order they came. */
export const JOURNAL_HEADER_FIELDS = 64
/** The most characters of their names and values it keeps of each. */
export const JOURNAL_HEADER_CHARS = 8192

type HeaderValue = IncomingHttpHeaders[string] | OutgoingHttpHeaders[string]
type Headers = Readonly<Record<string, HeaderValue>>

const textOf = (value: HeaderValue): string => (Array.isArray(value) ? value.join(', ') : String(value ?? ''))

/** Headers as an entry keeps them until it is first read: as they came, but only the first that fit the bounds, each whole. */
interface KeptHeaders {
  readonly fields: Headers
  /** Some were left out. */
  readonly cut: boolean
  /** What they take of the sandbox's budget. */
  readonly bytes: number
}

const AUTHORIZATION = 'authorization'

/** The estimate of a header field kept, beside its characters. */
const HEADER_FIELD_BYTES = 64

/**
 * The first of `headers` (but `skip`) that fit in JOURNAL_HEADER_FIELDS fields and JOURNAL_HEADER_CHARS
 * characters, beside `taken` of each already taken. A copy, so that the entry holds nothing else of them.
 */
const keptHeaders = (headers: Headers, taken: { readonly fields: number; readonly chars: number }, skip?: string): KeptHeaders => {
  const names = Object.keys(headers).filter((name) => name !== skip)
  const fields: Record<string, HeaderValue> = {}
  let count = taken.fields
  let chars = taken.chars
  let bytes = 0
  for (const name of names) {
    const value = textOf(headers[name])
    if (count === JOURNAL_HEADER_FIELDS || chars + name.length + value.length > JOURNAL_HEADER_CHARS) return { fields, cut: true, bytes }
    fields[name] = headers[name]
    count += 1
    chars += name.length + value.length
    bytes += HEADER_FIELD_BYTES + textBytes(name) + textBytes(value)
  }
  return { fields, cut: false, bytes }
}

/** Header names in lower case, repeated ones joined, every key in them redacted. */
const headerRecord = (headers: Headers, redact: Redact): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [redact(name.toLowerCase()), redact(textOf(value))]))

export const NO_BODY: KeptBody = { body: null, bodyTruncated: false }

/** An answer's body as sent: the text Koa wrote (JSON.stringify of an object), or the bytes. */
export const answerBody = (body: unknown, redact: Redact): KeptBody => {
  if (body === undefined || body === null) return NO_BODY
  if (Buffer.isBuffer(body))
    return keptFromBytes({ bytes: body.subarray(0, JOURNAL_BODY_BYTES), cut: body.length > JOURNAL_BODY_BYTES }, redact)
  return keptFromText(typeof body === 'string' ? body : JSON.stringify(body), redact, JOURNAL_BODY_BYTES)
}

/**
 * A request's body as the client sent it: the text the service decoded when it read the body whole
 * without replacing a byte (a compressed body decompressed); otherwise (refused before it was read,
 * or not JSON, not UTF-8, not whole) the bytes that arrived.
 */
export const requestBody = (decoded: string | undefined, tapped: TappedBody, redact: Redact): KeptBody =>
  decoded !== undefined && !decoded.includes('\uFFFD') ? keptFromText(decoded, redact, JOURNAL_BODY_BYTES) : keptFromBytes(tapped, redact)

/** What the journal takes of a request as it arrives: plain values, so that its entry holds nothing of the request's context. */
export interface Arrival extends Pick<SettledEntry, 'id' | 'method'> {
  /** When the request arrived, by its sandbox's clock (ms). */
  readonly started: number
  readonly url: string
  readonly requestHeaders: IncomingHttpHeaders
  readonly rawRequestHeaders: ReadonlyArray<string>
  /** It has a body (hasBody), which its entry shows once the request has ended. */
  readonly hasBody: boolean
}

/** The estimate of an entry, beside its text: the record, its closure, its place in the journal, what it shows once read. */
const ENTRY_BYTES = 1024

/**
 * A request as it arrived, within the bounds of an entry: the first of its headers kept
 * (JOURNAL_HEADER_FIELDS, JOURNAL_HEADER_CHARS), and of the credential only its form (`Bearer
 * [redacted]`), whatever it holds. A copy: its entry holds nothing else of the request.
 */
interface ArrivedRequest extends Omit<Arrival, 'requestHeaders' | 'rawRequestHeaders'> {
  /** Its headers as its entry shows them, every key redacted: made the first time they are read, and kept. */
  readonly headers: () => Pick<JournalMessage, 'headers' | 'headersTruncated'>
  /** What its text takes of the sandbox's budget, counted once. */
  readonly bytes: number
}

export const arrivedRequest = (arrival: Arrival, redact: Redact): ArrivedRequest => {
  // Only plain values of `arrival` are named here, so that the entry's closure holds nothing else of it.
  const { id, started, method, url, hasBody } = arrival
  const credentials = authorizationValues(arrival.rawRequestHeaders)
  const form = credentials.length === 0 ? undefined : authorizationForm(credentials)
  // The credential's form is kept first (what findings judge), unless it alone passes the bounds.
  const formChars = form === undefined ? 0 : AUTHORIZATION.length + form.length
  const authorization = form !== undefined && formChars <= JOURNAL_HEADER_CHARS ? form : undefined
  const asked = keptHeaders(
    arrival.requestHeaders,
    authorization === undefined ? { fields: 0, chars: 0 } : { fields: 1, chars: formChars },
    AUTHORIZATION,
  )
  const headersTruncated = asked.cut || (form !== undefined && authorization === undefined)
  let shown: Pick<JournalMessage, 'headers' | 'headersTruncated'> | undefined
  return {
    id,
    started,
    method,
    url,
    hasBody,
    headers: () =>
      (shown ??= {
        headers: { ...headerRecord(asked.fields, redact), ...(authorization === undefined ? {} : { authorization }) },
        headersTruncated,
      }),
    bytes:
      textBytes(id) +
      textBytes(method) +
      textBytes(url) +
      asked.bytes +
      (authorization === undefined ? 0 : HEADER_FIELD_BYTES + textBytes(AUTHORIZATION) + textBytes(authorization)),
  }
}

/** What is known of a request still pending, as it is read: what routing will make of it, and the fault applied so far. */
interface Unsettled {
  readonly operation: () => Operation | null
  readonly fault: () => string | null
}

/**
 * A request from its arrival until it ends: shown as it came, `pending`, without an answer or a
 * body yet (`bodyTruncated` when it has one). What it takes of the budget counts its text twice,
 * as it came and as its entry shows it.
 */
export const pendingRecord = (arrived: ArrivedRequest, unsettled: Unsettled, redact: Redact): HeldRequest => ({
  bytes: ENTRY_BYTES + 2 * arrived.bytes,
  show: () => ({
    id: redact(arrived.id),
    time: new Date(arrived.started).toISOString(),
    method: arrived.method,
    path: redact(arrived.url),
    operation: unsettled.operation(),
    state: 'pending',
    status: null,
    durationMs: null,
    fault: unsettled.fault(),
    request: { ...arrived.headers(), body: null, bodyTruncated: arrived.hasBody },
    response: null,
  }),
})

/** How a request ended: plain values, taken as it ends. */
export interface Ending extends Pick<SettledEntry, 'operation' | 'status' | 'durationMs' | 'fault'> {
  readonly state: Exclude<JournalState, 'pending'>
  readonly requestBody: KeptBody
  readonly responseHeaders: OutgoingHttpHeaders
  readonly responseBody: KeptBody
}

/**
 * A request that has ended, as the journal files it, within the bounds of an entry: its bodies cut
 * (JOURNAL_BODY_BYTES), the first of its answer's headers kept (JOURNAL_HEADER_FIELDS,
 * JOURNAL_HEADER_CHARS). Its entry is made, every key redacted, the first time it is read, and
 * kept. What it takes of the sandbox's budget counts its text twice, as it came and as its entry
 * shows it, but its bodies once: the entry shows the same strings.
 */
export const filedRecord = (arrived: ArrivedRequest, ending: Ending, redact: Redact): JournalRecord => {
  // Only plain values of `ending` are named here, so that the entry's closure holds nothing else of it.
  const { operation, state, status, durationMs, fault, requestBody, responseBody } = ending
  const answered = keptHeaders(ending.responseHeaders, { fields: 0, chars: 0 })
  const bodyBytes = textBytes(requestBody.body ?? '') + textBytes(responseBody.body ?? '')
  let shown: Omit<SettledEntry, 'sequence'> | undefined
  return {
    operation,
    status,
    fault,
    response: responseBody,
    bytes: ENTRY_BYTES + 2 * (arrived.bytes + answered.bytes) + bodyBytes,
    show: () =>
      (shown ??= {
        id: redact(arrived.id),
        time: new Date(arrived.started).toISOString(),
        method: arrived.method,
        path: redact(arrived.url),
        operation,
        state,
        status,
        durationMs,
        fault,
        request: { ...arrived.headers(), ...requestBody },
        response: { headers: headerRecord(answered.fields, redact), headersTruncated: answered.cut, ...responseBody },
      }),
  }
}
