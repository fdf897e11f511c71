/** What stands in for an API key in what the service shows. */
export const REDACTED = '[redacted]'

/** A text with every API key in it replaced by REDACTED. */
export type Redact = (text: string) => string

/** For a service that knows no key to hide (a benchmark's rung, a test of something else). */
export const redactNothing: Redact = (text) => text

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `%2F` or `%2f`: a percent-escape's hex digits may be of either case (RFC 3986 §2.1). */
const percentEscape = (byte: number): string =>
  `%${byte
    .toString(16)
    .padStart(2, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`)}`

/** A character as itself or percent-encoded, as a key may appear in a URL or a form. */
const spelledAnyWay = (character: string): string =>
  `(?:${escapeRegExp(character)}|${[...Buffer.from(character, 'utf8')].map(percentEscape).join('')})`

/**
 * Keys known by their form rather than listed, as keys made at run time are: `prefix`, then base64url
 * characters (`A-Z a-z 0-9 - _`), `length` characters in all.
 */
interface KeyForm {
  readonly prefix: string
  readonly length: number
}

/** A base64url character, as itself or percent-encoded. */
const BASE64URL_CHARACTER = `(?:[A-Za-z0-9_-]|${[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_']
  .map((character) => percentEscape(character.charCodeAt(0)))
  .join('|')})`

const spelledFormAnyWay = ({ prefix, length }: KeyForm): string =>
  `${[...prefix].map(spelledAnyWay).join('')}${BASE64URL_CHARACTER}{${length - prefix.length}}`

/**
 * Replaces each of `keys`, and any text of one of `forms`, in a text by `[redacted]`, wherever it
 * appears, written plainly or with any of its characters percent-encoded. A longer key is matched
 * first, so a key that holds another is replaced whole.
 */
export const keyRedactor = (keys: ReadonlyArray<string>, forms: ReadonlyArray<KeyForm> = []): Redact => {
  if (keys.length === 0 && forms.length === 0) return redactNothing
  const spellings = [...keys].sort((a, b) => b.length - a.length).map((key) => [...key].map(spelledAnyWay).join(''))
  const pattern = new RegExp([...spellings, ...forms.map(spelledFormAnyWay)].join('|'), 'g')
  // A text shorter than every key holds none: most paths and request ids are, and skip the search.
  const shortest = Math.min(...keys.map((key) => key.length), ...forms.map((form) => form.length))
  return (text) => (text.length < shortest ? text : text.replace(pattern, REDACTED))
}
