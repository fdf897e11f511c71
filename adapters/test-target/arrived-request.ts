import { authorizationValues, isAuthorization } from '../http/auth.js'
import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'
import { authorizationForm } from './authorization-form.js'
import type { JournalMessage, SettledEntry } from './journal-entry.js'
import { HEADER_FIELD_BYTES, headerRecord, JOURNAL_HEADER_CHARS, type KeptHeaders, keptLines } from './journal-headers.js'

/** What the journal takes of a request as it arrives: plain values, so that its entry holds nothing of the request's context. */
export interface Arrival extends Pick<SettledEntry, 'id' | 'method'> {
  /** When the request arrived, by its sandbox's clock (ms). */
  readonly started: number
  readonly url: string
  /** Node's `rawHeaders`: every line as it came, a repeated one too (`headers` keeps only the first of some). */
  readonly rawRequestHeaders: ReadonlyArray<string>
  /** It has a body (hasBody), which its entry shows once the request has ended. */
  readonly hasBody: boolean
}

const AUTHORIZATION = 'authorization'

/**
 * A request as it arrived, within the bounds of an entry: the first of its header lines kept
 * (JOURNAL_HEADER_FIELDS, JOURNAL_HEADER_CHARS), and of the credential only its form (`Bearer
 * [redacted]`), whatever it holds. Plain values: its entry holds nothing else of the request, and
 * its headers are lower-cased, joined and redacted only when the entry is read (requestHeaders).
 */
export interface ArrivedRequest extends Omit<Arrival, 'rawRequestHeaders'> {
  /** Its header lines but the credential, as they came. */
  readonly lines: KeptHeaders
  /** The credential's form, when it fits the bounds. */
  readonly authorization: string | undefined
  readonly headersTruncated: boolean
  /** What its text takes of the sandbox's budget, counted once. */
  readonly bytes: number
}

export const arrivedRequest = ({ id, started, method, url, rawRequestHeaders, hasBody }: Arrival): ArrivedRequest => {
  const credentials = authorizationValues(rawRequestHeaders)
  const form = credentials.length === 0 ? undefined : authorizationForm(credentials)
  // The credential's form is kept first (what findings judge), unless it alone passes the bounds.
  const formChars = form === undefined ? 0 : AUTHORIZATION.length + form.length
  const authorization = form !== undefined && formChars <= JOURNAL_HEADER_CHARS ? form : undefined
  const lines = keptLines(
    rawRequestHeaders,
    authorization === undefined ? { fields: 0, chars: 0 } : { fields: 1, chars: formChars },
    isAuthorization,
  )
  return {
    id,
    started,
    method,
    url,
    hasBody,
    lines,
    authorization,
    headersTruncated: lines.cut || (form !== undefined && authorization === undefined),
    bytes:
      textBytes(id) +
      textBytes(method) +
      textBytes(url) +
      lines.bytes +
      (authorization === undefined ? 0 : HEADER_FIELD_BYTES + textBytes(AUTHORIZATION) + textBytes(authorization)),
  }
}

/**
 * A request's headers as its entry shows them, every key redacted; the credential's form added last
 * to the fresh record, not spread with it (journal-record.ts, `message`, says why).
 */
export const requestHeaders = (
  { lines, authorization, headersTruncated }: ArrivedRequest,
  redact: Redact,
): Pick<JournalMessage, 'headers' | 'headersTruncated'> => {
  const headers = headerRecord(lines, redact)
  if (authorization !== undefined) headers[AUTHORIZATION] = authorization
  return { headers, headersTruncated }
}
