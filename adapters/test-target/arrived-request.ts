import type { IncomingHttpHeaders } from 'node:http'
import { authorizationValues } from '../http/auth.js'
import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'
import { authorizationForm } from './authorization-form.js'
import type { JournalMessage, SettledEntry } from './journal-entry.js'
import { HEADER_FIELD_BYTES, headerRecord, headersIn, JOURNAL_HEADER_CHARS, keptHeaders } from './journal-headers.js'

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

const AUTHORIZATION = 'authorization'

/**
 * A request as it arrived, within the bounds of an entry: the first of its headers kept
 * (JOURNAL_HEADER_FIELDS, JOURNAL_HEADER_CHARS), and of the credential only its form (`Bearer
 * [redacted]`), whatever it holds. A copy: its entry holds nothing else of the request.
 */
export interface ArrivedRequest extends Omit<Arrival, 'requestHeaders' | 'rawRequestHeaders'> {
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
  // Read now: the service may change a header it has read (json-body.ts a Content-Encoding).
  const asked = keptHeaders(
    headersIn(arrival.requestHeaders),
    authorization === undefined ? { fields: 0, chars: 0 } : { fields: 1, chars: formChars },
    AUTHORIZATION,
  )
  const headersTruncated = asked.cut || (form !== undefined && authorization === undefined)
  /** The credential's form added last to the fresh record, not spread with it (journal-record.ts, `message`, says why). */
  const shownHeaders = (): Record<string, string> => {
    const headers = headerRecord(asked, redact)
    if (authorization !== undefined) headers[AUTHORIZATION] = authorization
    return headers
  }
  let shown: Pick<JournalMessage, 'headers' | 'headersTruncated'> | undefined
  return {
    id,
    started,
    method,
    url,
    hasBody,
    headers: () => (shown ??= { headers: shownHeaders(), headersTruncated }),
    bytes:
      textBytes(id) +
      textBytes(method) +
      textBytes(url) +
      asked.bytes +
      (authorization === undefined ? 0 : HEADER_FIELD_BYTES + textBytes(AUTHORIZATION) + textBytes(authorization)),
  }
}
