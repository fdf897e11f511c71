import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import { authorizationValues } from '../http/auth.js'
import type { Redact } from '../http/key-redaction.js'
import { authorizationForm } from './authorization-form.js'
import { type KeptBody, keptFromBytes, keptFromText, type TappedBody } from './journal-body.js'
import type { JournalEntry, JournalRecord } from './request-journal.js'

/** The most of a request's or an answer's body an entry keeps. */
export const JOURNAL_BODY_BYTES = 4096

/** Header names in lower case, repeated ones joined, every key in them redacted. */
const headerRecord = (headers: IncomingHttpHeaders | OutgoingHttpHeaders, redact: Redact): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      redact(name.toLowerCase()),
      redact(Array.isArray(value) ? value.join(', ') : String(value ?? '')),
    ]),
  )

/** The request's headers; of the credential only its form (`Bearer [redacted]`), whatever it holds. */
const requestHeaders = (headers: IncomingHttpHeaders, rawHeaders: ReadonlyArray<string>, redact: Redact): Record<string, string> => {
  const authorization = authorizationValues(rawHeaders)
  return {
    ...headerRecord(headers, redact),
    ...(authorization.length === 0 ? {} : { authorization: authorizationForm(authorization) }),
  }
}

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

/**
 * What a request leaves for its entry: plain values, taken as it ends. Made in a function of its
 * own, so that the entry's closure holds these and nothing of the request's context, response or
 * connection, which would otherwise live as long as the entry.
 */
export interface Taken extends Pick<JournalEntry, 'id' | 'method' | 'operation' | 'status' | 'durationMs' | 'fault'> {
  /** When the request arrived, by its sandbox's clock (ms). */
  readonly started: number
  readonly url: string
  readonly requestHeaders: IncomingHttpHeaders
  readonly rawRequestHeaders: ReadonlyArray<string>
  readonly requestBody: KeptBody
  readonly responseHeaders: OutgoingHttpHeaders
  readonly responseBody: KeptBody
}

/** A request as the journal files it: its entry made, every key redacted, the first time it is read, and kept. */
export const filedRecord = (taken: Taken, redact: Redact): JournalRecord => {
  let shown: Omit<JournalEntry, 'sequence'> | undefined
  const { operation, status, durationMs, fault } = taken
  return {
    operation,
    status,
    fault,
    response: taken.responseBody,
    show: () =>
      (shown ??= {
        id: redact(taken.id),
        time: new Date(taken.started).toISOString(),
        method: taken.method,
        path: redact(taken.url),
        operation,
        status,
        durationMs,
        fault,
        request: { headers: requestHeaders(taken.requestHeaders, taken.rawRequestHeaders, redact), ...taken.requestBody },
        response: { headers: headerRecord(taken.responseHeaders, redact), ...taken.responseBody },
      }),
  }
}
