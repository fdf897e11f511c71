import { authorizationValues, isAuthorization } from '../http/auth.js'
import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'
import { authorizationForm } from './authorization-form.js'
import type { JournalMessage, KeptRequest } from './journal-entry.js'
import { HEADER_FIELD_BYTES, headerRecord, JOURNAL_HEADER_CHARS, keptLines } from './journal-headers.js'

const AUTHORIZATION = 'authorization'

/** A request's header lines as its entry keeps them (the credential's form apart), and what they take of the budget. */
interface KeptRequestHeaders extends Pick<KeptRequest, 'requestLines' | 'authorization' | 'requestHeadersTruncated'> {
  readonly bytes: number
}

/**
 * A request's header lines (Node's `rawHeaders`: every line as it came, a repeated one too) within
 * the bounds of an entry: the first kept (JOURNAL_HEADER_FIELDS, JOURNAL_HEADER_CHARS), and of the
 * credential only its form (`Bearer [redacted]`), whatever it holds. Lower-cased, joined and
 * redacted only when the entry is read (requestHeaders).
 */
export const arrivedHeaders = (rawRequestHeaders: ReadonlyArray<string>): KeptRequestHeaders => {
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
    requestLines: lines.fields,
    authorization,
    requestHeadersTruncated: lines.cut || (form !== undefined && authorization === undefined),
    bytes: lines.bytes + (authorization === undefined ? 0 : HEADER_FIELD_BYTES + textBytes(AUTHORIZATION) + textBytes(authorization)),
  }
}

/**
 * A request's headers as its entry shows them, every key redacted; the credential's form added last
 * to the fresh record, not spread with it (journal-record.ts, `message`, says why).
 */
export const requestHeaders = (
  { requestLines, authorization, requestHeadersTruncated }: KeptRequest,
  redact: Redact,
): Pick<JournalMessage, 'headers' | 'headersTruncated'> => {
  const headers = headerRecord(requestLines, redact)
  if (authorization !== undefined) headers[AUTHORIZATION] = authorization
  return { headers, headersTruncated: requestHeadersTruncated }
}
