import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'

/** The most header fields an entry keeps of a request, and of an answer: the first, in the order they came. */
export const JOURNAL_HEADER_FIELDS = 64
/** The most characters of their names and values it keeps of each. */
export const JOURNAL_HEADER_CHARS = 8192

type HeaderValue = IncomingHttpHeaders[string] | OutgoingHttpHeaders[string]
type Headers = Readonly<Record<string, HeaderValue>>

const textOf = (value: HeaderValue): string => (Array.isArray(value) ? value.join(', ') : String(value ?? ''))

/** Headers as an entry keeps them until it is first read: as they came, but only the first that fit the bounds, each whole. */
interface KeptHeaders {
  /** Every field of `fields` but `skip` is kept. */
  readonly fields: Headers
  readonly skip: string | undefined
  /** Some were left out. */
  readonly cut: boolean
  /** What they take of the sandbox's budget. */
  readonly bytes: number
}

/** The estimate of a header field kept, beside its characters. */
export const HEADER_FIELD_BYTES = 64

/**
 * The first of `headers` (but `skip`) that fit in JOURNAL_HEADER_FIELDS fields and JOURNAL_HEADER_CHARS
 * characters, beside `taken` of each already taken. `headers` must be the caller's own copy, which
 * nothing changes: when all of them fit (nearly always), it is kept as it is.
 */
export const keptHeaders = (headers: Headers, taken: { readonly fields: number; readonly chars: number }, skip?: string): KeptHeaders => {
  let count = taken.fields
  let chars = taken.chars
  let bytes = 0
  const names = Object.keys(headers)
  for (const [index, name] of names.entries()) {
    if (name === skip) continue
    const value = textOf(headers[name])
    if (count === JOURNAL_HEADER_FIELDS || chars + name.length + value.length > JOURNAL_HEADER_CHARS) {
      const fields: Record<string, HeaderValue> = {}
      for (const first of names.slice(0, index)) if (first !== skip) fields[first] = headers[first]
      return { fields, skip: undefined, cut: true, bytes }
    }
    count += 1
    chars += name.length + value.length
    bytes += HEADER_FIELD_BYTES + textBytes(name) + textBytes(value)
  }
  return { fields: headers, skip, cut: false, bytes }
}

/** Header names in lower case, repeated ones joined, every key in them redacted. */
export const headerRecord = ({ fields, skip }: Pick<KeptHeaders, 'fields' | 'skip'>, redact: Redact): Record<string, string> =>
  Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => name !== skip)
      .map(([name, value]) => [redact(name.toLowerCase()), redact(textOf(value))]),
  )
