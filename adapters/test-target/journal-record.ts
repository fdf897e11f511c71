import type { Redact } from '../http/key-redaction.js'
import { type ArrivedRequest, requestHeaders } from './arrived-request.js'
import { type KeptBody, keptFromBytes, NOTHING_TAPPED, type TappedBody } from './journal-body.js'
import { heldAsShown, type HeldBody, heldText } from './held-body.js'
import type { HeldRequest, JournalMessage, JournalRecord, JournalState, SettledEntry } from './journal-entry.js'
import { type HeaderSource, headerRecord, keptHeaders } from './journal-headers.js'
import type { Operation } from './fault-rule.js'

/** The most of a request's or an answer's body an entry keeps. */
export const JOURNAL_BODY_BYTES = 4096

export const NO_BODY: HeldBody = heldAsShown({ body: null, bodyTruncated: false })

/** An answer's body as sent: the text Koa wrote (JSON.stringify of an object), or the bytes. */
export const answerBody = (body: unknown, redact: Redact): HeldBody => {
  if (body === undefined || body === null) return NO_BODY
  if (Buffer.isBuffer(body))
    return heldAsShown(keptFromBytes({ bytes: body.subarray(0, JOURNAL_BODY_BYTES), cut: body.length > JOURNAL_BODY_BYTES }, redact))
  return heldText(typeof body === 'string' ? body : JSON.stringify(body), redact, JOURNAL_BODY_BYTES)
}

/**
 * A request's body as the client sent it: the text the service decoded when it read the body whole
 * without replacing a byte (a compressed body decompressed); otherwise (refused before it was read,
 * or not JSON, not UTF-8, not whole) the bytes that arrived.
 */
export const requestBody = (decoded: string | undefined, tapped: TappedBody, redact: Redact): HeldBody => {
  if (decoded !== undefined && !decoded.includes('\uFFFD')) return heldText(decoded, redact, JOURNAL_BODY_BYTES)
  // Most requests have no body: one held body for them all.
  return tapped === NOTHING_TAPPED ? NO_BODY : heldAsShown(keptFromBytes(tapped, redact))
}

/**
 * A request or an answer as an entry shows it, one literal of its four fields rather than a spread
 * of its headers and its body: on Node 20 an object spread followed by other fields or another
 * spread gives nearly every object a hidden class of its own, which an entry kept once read holds.
 */
const message = (headers: Pick<JournalMessage, 'headers' | 'headersTruncated'>, body: KeptBody): JournalMessage => ({
  headers: headers.headers,
  headersTruncated: headers.headersTruncated,
  body: body.body,
  bodyTruncated: body.bodyTruncated,
})

/** The estimate of an entry, beside its text: the record, its closure, its place in the journal, what it shows once read. */
const ENTRY_BYTES = 1024

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
    request: message(requestHeaders(arrived, redact), { body: null, bodyTruncated: arrived.hasBody }),
    response: null,
  }),
})

/** How a request ended: plain values, taken as it ends. */
export interface Ending extends Pick<SettledEntry, 'operation' | 'status' | 'durationMs' | 'fault'> {
  readonly state: Exclude<JournalState, 'pending'>
  readonly requestBody: HeldBody
  /** The answer's headers as sent: read as the request is filed, never kept. */
  readonly responseHeaders: HeaderSource
  readonly responseBody: HeldBody
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
  const answered = keptHeaders(ending.responseHeaders)
  const bodyBytes = requestBody.bytes + responseBody.bytes
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
        request: message(requestHeaders(arrived, redact), requestBody.shown()),
        response: message({ headers: headerRecord(answered, redact), headersTruncated: answered.cut }, responseBody.shown()),
      }),
  }
}
