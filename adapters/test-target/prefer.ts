import { withoutOptionalWhitespace } from '../http/optional-whitespace.js'

/**
 * The `Prefer` request header of RFC 7240 §2:
 *
 *   Prefer     = 1#preference
 *   preference = token [ BWS "=" BWS word ] *( OWS ";" [ OWS parameter ] )
 *   parameter  = token [ BWS "=" BWS word ]
 *   word       = token / quoted-string
 *
 * Read leniently, as a server must: an element that does not follow this syntax is skipped and the
 * others are kept. No npm package fits: the one parser there (parse-prefer-header 1.0.0) camel-cases
 * names, merges parameters into them and accepts names with spaces.
 */

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
const QUOTED_STRING = '"(?:[^"\\\\]|\\\\.)*"'
const WORD = `(?:${TOKEN}|${QUOTED_STRING})`
const BWS_EQUALS = '[ \\t]*=[ \\t]*'
const PARAMETER = `${TOKEN}(?:${BWS_EQUALS}${WORD})?`
const PREFERENCE = new RegExp(`^(${TOKEN})(?:${BWS_EQUALS}(${WORD}))?(?:[ \\t]*;(?:[ \\t]*${PARAMETER})?)*$`)

/** Splits a list at the commas outside quoted strings. */
const listElements = (text: string): string[] => {
  const elements: string[] = []
  let start = 0
  let quoted = false
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]
    if (quoted && char === '\\') index += 1
    else if (char === '"') quoted = !quoted
    else if (!quoted && char === ',') {
      elements.push(text.slice(start, index))
      start = index + 1
    }
  }
  elements.push(text.slice(start))
  return elements
}

const unquote = (word: string): string => (word.startsWith('"') ? word.slice(1, -1).replace(/\\(.)/g, '$1') : word)

/**
 * The preferences of one or more `Prefer` header values (several headers count as one list), by
 * lower-cased name. A value is undefined when none was given: an empty value is no value (§2).
 * Parameters are read past and dropped, since no preference this service knows has any. When a
 * name appears more than once, the first occurrence wins (§2).
 */
export const parsePrefer = (header: string | ReadonlyArray<string> | undefined): ReadonlyMap<string, string | undefined> => {
  const preferences = new Map<string, string | undefined>()
  const values = typeof header === 'string' ? [header] : (header ?? [])
  for (const element of values.flatMap(listElements)) {
    const match = PREFERENCE.exec(withoutOptionalWhitespace(element))
    if (match === null) continue
    const name = (match[1] ?? '').toLowerCase()
    const value = match[2] === undefined ? '' : unquote(match[2])
    if (!preferences.has(name)) preferences.set(name, value === '' ? undefined : value)
  }
  return preferences
}
