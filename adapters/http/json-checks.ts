/**
 * The checks a JSON body gets after @koa/bodyparser has parsed it (json-body.ts): what JSON.parse
 * lets through but the service refuses. They read the raw text the parser kept, which JSON.parse has
 * accepted, so they only follow strings and nesting; none parses the text again.
 */

/**
 * Whether a JSON number literal denotes an integer: its digits times ten to the power of its
 * exponent less its fraction digits, trailing zeros aside, is a whole number. `1.0`, `1e2` and
 * `120e-1` do; `0.99999999999999999`, `1e-400` and `9007199254740990.9` do not, whatever double
 * they round to. Linear in the literal's length, with no regular expression that could backtrack.
 */
export const denotesInteger = (literal: string): boolean => {
  const exponentAt = literal.search(/[eE]/)
  const significand = exponentAt === -1 ? literal : literal.slice(0, exponentAt)
  const point = significand.indexOf('.')
  const digits = (point === -1 ? significand : significand.slice(0, point) + significand.slice(point + 1)).replace('-', '')
  const fractionDigits = point === -1 ? 0 : significand.length - point - 1
  let last = digits.length - 1
  while (last >= 0 && digits.charCodeAt(last) === 48) last -= 1
  // All zeros: the literal denotes zero.
  if (last === -1) return true
  const trailingZeros = digits.length - 1 - last
  const exponentText = exponentAt === -1 ? '0' : literal.slice(exponentAt + 1)
  const magnitude = exponentText.replace(/^[+-]/, '').replace(/^0+(?=.)/, '')
  const negative = exponentText.startsWith('-')
  // An exponent of 16 digits or more outweighs any fraction a body can hold: its sign decides.
  if (magnitude.length > 15) return !negative
  const exponent = negative ? -Number(magnitude) : Number(magnitude)
  return exponent - fractionDigits + trailingZeros >= 0
}

/** Characters a JSON number literal is made of. */
const isNumberCharacter = (code: number): boolean =>
  (code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46 || code === 101 || code === 69

/**
 * A number no integer rule accepts, written where the client wrote one that only rounds to an
 * integer. Negative, so that no rule of a range from 0 accepts it either: a fault rule's `chance`
 * written `1e-400` is refused, not read as another chance.
 */
export const NOT_AN_INTEGER = '-0.5'

/**
 * JSON `text` (already accepted by JSON.parse) with each number literal that JSON.parse would round
 * to an integer it does not denote (`0.99999999999999999` to 1, `1e-400` to 0) written as
 * NOT_AN_INTEGER, so that no integer the service reads, at any depth, is a number the client did
 * not write; undefined when the text holds none. Strings are skipped, never rewritten.
 */
export const withRoundedIntegersRefused = (text: string): string | undefined => {
  let rewritten = ''
  let copiedUpTo = 0
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at)
    if (code === 34) {
      for (at += 1; text.charCodeAt(at) !== 34; at += 1) if (text.charCodeAt(at) === 92) at += 1
    } else if (code === 45 || (code >= 48 && code <= 57)) {
      const start = at
      while (at < text.length && isNumberCharacter(text.charCodeAt(at))) at += 1
      const literal = text.slice(start, at)
      if (Number.isInteger(Number(literal)) && !denotesInteger(literal)) {
        rewritten += text.slice(copiedUpTo, start) + NOT_AN_INTEGER
        copiedUpTo = at
      }
      at -= 1
    }
  }
  return copiedUpTo === 0 ? undefined : rewritten + text.slice(copiedUpTo)
}

/**
 * Whether arrays and objects in JSON `text` (already accepted by JSON.parse) nest deeper than `max`
 * levels, a top-level one being one. Read on the text, skipping strings, because walking the parsed
 * value cost a third of the parse on a body of 90,000 keys, and a tenth of that on the text.
 */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at)
    if (code === 34) {
      for (at += 1; text.charCodeAt(at) !== 34; at += 1) if (text.charCodeAt(at) === 92) at += 1
    } else if (code === 123 || code === 91) {
      depth += 1
      if (depth > max) return true
    } else if (code === 125 || code === 93) depth -= 1
  }
  return false
}
