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
export interface KeptHeaders {
  /** Name, text, name, text...: the names as they came; a request's repeated lines apart, an answer's repeated values joined. */
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

/** Fields being kept, in order, and what they take so far of the bounds and of the budget. */
interface Keeping {
  readonly fields: string[]
  count: number
  chars: number
  bytes: number
}

const keepingFrom = (taken: { readonly fields: number; readonly chars: number }): Keeping => ({
  fields: [],
  count: taken.fields,
  chars: taken.chars,
  bytes: 0,
})

/** Keeps a field when it fits in JOURNAL_HEADER_FIELDS fields and JOURNAL_HEADER_CHARS characters; false when it does not. */
const kept = (into: Keeping, name: string, value: string): boolean => {
  if (into.count === JOURNAL_HEADER_FIELDS || into.chars + name.length + value.length > JOURNAL_HEADER_CHARS) return false
  into.fields.push(name, value)
  into.count += 1
  into.chars += name.length + value.length
  into.bytes += HEADER_FIELD_BYTES + textBytes(name) + textBytes(value)
  return true
}

/**
 * What was kept, its fields in an array of their own size: the array they were pushed into has room
 * to grow, slots that every young collection would copy with the entry for as long as it is kept.
 */
const keptAll = ({ fields, bytes }: Keeping, cut: boolean): KeptHeaders => ({ fields: fields.slice(), cut, bytes })

/**
 * The first of `headers` that fit in JOURNAL_HEADER_FIELDS fields and JOURNAL_HEADER_CHARS
 * characters: read now, so that what the service changes later in the message's headers changes
 * nothing kept.
 */
export const keptHeaders = (headers: HeaderSource): KeptHeaders => {
  const keeping = keepingFrom({ fields: 0, chars: 0 })
  for (const name of headers.names) if (!kept(keeping, name, textOf(headers.value(name)))) return keptAll(keeping, true)
  return keptAll(keeping, false)
}

/**
 * The first lines of a request's raw headers (Node's `rawHeaders`: name, value, name, value..., as
 * they came, repeated lines apart), but those whose name `skips`, that fit beside `taken` of each
 * bound already taken. The lines themselves, no copy of their text: Node never changes them.
 */
export const keptLines = (
  raw: ReadonlyArray<string>,
  taken: { readonly fields: number; readonly chars: number },
  skips: (name: string) => boolean,
): KeptHeaders => {
  const keeping = keepingFrom(taken)
  for (let at = 0; at + 1 < raw.length; at += 2) {
    const name = raw[at] ?? ''
    if (skips(name)) continue
    if (!kept(keeping, name, raw[at + 1] ?? '')) return keptAll(keeping, true)
  }
  return keptAll(keeping, false)
}

/** Header names in lower case, the values of a repeated name joined with `, ` in the order they came, every key in them redacted. */
export const headerRecord = (fields: ReadonlyArray<string>, redact: Redact): Record<string, string> => {
  const joined = new Map<string, string>()
  for (let at = 0; at + 1 < fields.length; at += 2) {
    const name = redact((fields[at] ?? '').toLowerCase())
    const value = redact(fields[at + 1] ?? '')
    const before = joined.get(name)
    joined.set(name, before === undefined ? value : `${before}, ${value}`)
  }
  return Object.fromEntries(joined)
}
