import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'

/** The most header fields an entry keeps of a request, and of an answer: the first, in the order they came. */
export const JOURNAL_HEADER_FIELDS = 64
/** The most characters of their names and values it keeps of each. */
export const JOURNAL_HEADER_CHARS = 8192

type HeaderValue = IncomingHttpHeaders[string] | OutgoingHttpHeaders[string]
type Headers = Readonly<Record<string, HeaderValue>>

const textOf = (value: HeaderValue): string => (Array.isArray(value) ? value.join(', ') : String(value ?? ''))

/**
 * Headers as an entry keeps them until it is first read: the first that fit the bounds, each whole,
 * as name and text in turn. A flat array of strings, not an object: an entry holds it for as long
 * as the journal keeps it, and an object of the same fields (Node's copy of an answer's headers is
 * a dictionary) holds a table of slots besides, which every young collection copies with it.
 */
interface KeptHeaders {
  /** Name, text, name, text...: the names as they came, repeated values joined. */
  readonly fields: ReadonlyArray<string>
  /** Some were left out. */
  readonly cut: boolean
  /** What they take of the sandbox's budget. */
  readonly bytes: number
}

/** A message's headers as keptHeaders reads them: their names, and the value of each. */
export interface HeaderSource {
  readonly names: ReadonlyArray<string>
  readonly value: (name: string) => HeaderValue
}

/** Headers held in an object. */
export const headersIn = (headers: Headers): HeaderSource => ({ names: Object.keys(headers), value: (name) => headers[name] })

/**
 * The headers of an answer, read where the response holds them: getHeaders() would first copy
 * them all into an object of its own, only to be read once and dropped.
 */
export const headersOfAnswer = (response: ServerResponse): HeaderSource => ({
  names: response.getHeaderNames(),
  value: (name) => response.getHeader(name),
})

/** The estimate of a header field kept, beside its characters. */
export const HEADER_FIELD_BYTES = 64

/**
 * The first of `headers` (but `skip`) that fit in JOURNAL_HEADER_FIELDS fields and JOURNAL_HEADER_CHARS
 * characters, beside `taken` of each already taken: read now, so that what the service changes later
 * in the message's headers changes nothing kept.
 */
export const keptHeaders = (
  headers: HeaderSource,
  taken: { readonly fields: number; readonly chars: number },
  skip?: string,
): KeptHeaders => {
  let count = taken.fields
  let chars = taken.chars
  let bytes = 0
  const fields: string[] = []
  for (const name of headers.names) {
    if (name === skip) continue
    const value = textOf(headers.value(name))
    if (count === JOURNAL_HEADER_FIELDS || chars + name.length + value.length > JOURNAL_HEADER_CHARS) return { fields, cut: true, bytes }
    fields.push(name, value)
    count += 1
    chars += name.length + value.length
    bytes += HEADER_FIELD_BYTES + textBytes(name) + textBytes(value)
  }
  return { fields, cut: false, bytes }
}

/** Header names in lower case, repeated ones joined, every key in them redacted. */
export const headerRecord = ({ fields }: Pick<KeptHeaders, 'fields'>, redact: Redact): Record<string, string> => {
  const pairs: Array<[string, string]> = []
  for (let at = 0; at + 1 < fields.length; at += 2) pairs.push([redact((fields[at] ?? '').toLowerCase()), redact(fields[at + 1] ?? '')])
  return Object.fromEntries(pairs)
}
