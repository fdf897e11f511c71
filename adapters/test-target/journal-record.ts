import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'
import { arrivedHeaders, requestHeaders } from './arrived-request.js'
import { type BodyTap, type KeptBody, keptFromBytes } from './journal-body.js'
import { heldBytes, type HeldBody, heldText, JOURNAL_BODY_BYTES, NO_BODY, shownBody } from './held-body.js'
import type { EntryReading, JournalEntry, JournalMessage, JournalState, KeptRequest, SettledEntry } from './journal-entry.js'
import { type HeaderSource, headerRecord, keptHeaders } from './journal-headers.js'

/** An answer's body as sent: the text Koa wrote (JSON.stringify of an object), or the bytes. */
export const answerBody = (body: unknown, redact: Redact): HeldBody => {
  if (body === undefined || body === null) return NO_BODY
  if (Buffer.isBuffer(body))
    return keptFromBytes({ bytes: body.subarray(0, JOURNAL_BODY_BYTES), cut: body.length > JOURNAL_BODY_BYTES }, redact)
  return heldText(typeof body === 'string' ? body : JSON.stringify(body), redact)
}

/**
 * A request's body as the client sent it: the text the service decoded when it read the body whole
 * without replacing a byte (a compressed body decompressed); otherwise (refused before it was read,
 * or not JSON, not UTF-8, not whole) the bytes that arrived.
 */
export const requestBody = (decoded: string | undefined, tap: BodyTap | undefined, redact: Redact): HeldBody => {
  if (decoded !== undefined && !decoded.includes('\uFFFD')) return heldText(decoded, redact)
  // Most requests have no body, and are not tapped: one held body for them all.
  return tap === undefined ? NO_BODY : keptFromBytes(tap.caught(), redact)
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

/** The estimate of an entry, beside its text: the record, its place in the journal, what it shows once read. */
const ENTRY_BYTES = 1024

/** What the journal takes of a request as it arrives: plain values, so that its record holds nothing of the request's context. */
export interface Arrival extends Pick<KeptRequest, 'id' | 'started' | 'method' | 'path' | 'url' | 'hasBody'> {
  /** Node's `rawHeaders`: every line as it came, a repeated one too (`headers` keeps only the first of some). */
  readonly rawRequestHeaders: ReadonlyArray<string>
}

/**
 * A request as it arrives, `pending`, within the bounds of an entry (arrivedHeaders), shown with
 * the fault `pending` holds so far. What it takes of the budget counts its text twice, as it came
 * and as its entry shows it. Every field is set here, in one order, so that every record has one
 * hidden class.
 */
export const arrivedRecord = (
  { id, started, method, path, url, hasBody, rawRequestHeaders }: Arrival,
  reading: EntryReading,
  pending: NonNullable<KeptRequest['pending']>,
): KeptRequest => {
  const headers = arrivedHeaders(rawRequestHeaders)
  const arrivedBytes = textBytes(id) + textBytes(method) + textBytes(url) + headers.bytes
  return {
    sequence: 0,
    counted: 0,
    gone: false,
    bytes: ENTRY_BYTES + 2 * arrivedBytes,
    reading,
    id,
    started,
    method,
    path,
    url,
    hasBody,
    requestLines: headers.requestLines,
    authorization: headers.authorization,
    requestHeadersTruncated: headers.requestHeadersTruncated,
    arrivedBytes,
    pending,
    state: 'pending',
    operation: null,
    status: null,
    durationMs: 0,
    fault: null,
    answerLines: [],
    answerHeadersTruncated: false,
    requestBody: NO_BODY,
    responseBody: NO_BODY,
    shown: undefined,
  }
}

/** How a request ended: plain values, taken as it ends. */
export interface Ending extends Pick<SettledEntry, 'operation' | 'status' | 'durationMs' | 'fault'> {
  readonly state: Exclude<JournalState, 'pending'>
  readonly requestBody: HeldBody
  /** The answer's headers as sent: read as the request is filed, never kept. */
  readonly responseHeaders: HeaderSource
  readonly responseBody: HeldBody
}

/**
 * Completes `request` in place as it ended, within the bounds of an entry: its bodies cut
 * (JOURNAL_BODY_BYTES), the first of its answer's headers kept (JOURNAL_HEADER_FIELDS,
 * JOURNAL_HEADER_CHARS). What it takes of the budget counts its text twice, as it came and as its
 * entry shows it, but its bodies once: the entry shows the same strings.
 */
export const settle = (request: KeptRequest, ending: Ending): void => {
  const answered = keptHeaders(ending.responseHeaders)
  request.pending = undefined
  request.state = ending.state
  request.operation = ending.operation
  request.status = ending.status
  request.durationMs = ending.durationMs
  request.fault = ending.fault
  request.answerLines = answered.fields
  request.answerHeadersTruncated = answered.cut
  request.requestBody = ending.requestBody
  request.responseBody = ending.responseBody
  request.bytes = ENTRY_BYTES + 2 * (request.arrivedBytes + answered.bytes) + heldBytes(ending.requestBody) + heldBytes(ending.responseBody)
}

/**
 * A request's entry, but its sequence: made each time it is read while the request is pending (it
 * changes as it ends), and made once, every key redacted, and kept, the first time it is read once
 * it has ended.
 */
export const shownEntry = (request: KeptRequest): Omit<JournalEntry, 'sequence'> => {
  const { reading, state } = request
  // Each a literal of every field, no spread (`message` says why).
  if (state === 'pending')
    return {
      id: reading.redact(request.id),
      time: new Date(request.started).toISOString(),
      method: request.method,
      path: reading.redact(request.url),
      operation: reading.operationOf(request.method, request.path),
      state,
      status: null,
      durationMs: null,
      fault: request.pending?.fault ?? null,
      request: message(requestHeaders(request, reading.redact), { body: null, bodyTruncated: request.hasBody }),
      response: null,
    }
  return (request.shown ??= {
    id: reading.redact(request.id),
    time: new Date(request.started).toISOString(),
    method: request.method,
    path: reading.redact(request.url),
    operation: request.operation,
    state,
    status: request.status,
    durationMs: request.durationMs,
    fault: request.fault,
    request: message(requestHeaders(request, reading.redact), shownBody(request.requestBody, reading.redact)),
    response: message(
      { headers: headerRecord(request.answerLines, reading.redact), headersTruncated: request.answerHeadersTruncated },
      shownBody(request.responseBody, reading.redact),
    ),
  })
}
