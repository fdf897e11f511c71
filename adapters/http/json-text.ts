import * as E from 'fp-ts/Either'

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

const isDigit = (code: number): boolean => code >= 48 && code <= 57

/** Thrown inside the parse, caught at its top: the problem a client is told. */
class Refusal extends Error {
  constructor(readonly problem: string) {
    super(problem)
  }
}

/**
 * The one parse of a JSON request body (RFC 8259), in one pass over the text, giving what
 * JSON.parse gives but for three things checked on the way:
 * - an object key `__proto__` is refused, at any depth and however escaped: wherever the value
 *   were copied, it could become a prototype;
 * - arrays and objects nested deeper than `maxDepth` are refused, before anything deeper is read;
 * - a number written with a fraction or an exponent that does not denote an integer, but whose
 *   nearest double is one (`0.99999999999999999` is read as 1 by JSON.parse), is read as NaN: no
 *   integer in the value was written as anything but an integer, so no integer field can take
 *   a number the client did not write. Integers beyond 2^53 are read as JSON.parse reads them.
 * Node 20's JSON.parse cannot show a literal's text (no source text access), hence a parse of our
 * own; test/adapters/json-text.test.ts checks it against JSON.parse on generated text. Left: the
 * problem, as a sentence for the client.
 */
export const parseJsonText = (text: string, maxDepth: number): E.Either<string, unknown> => {
  let at = 0
  const unexpected = (): never => {
    throw new Refusal(
      at < text.length
        ? `the body is not valid JSON: unexpected ${JSON.stringify(text[at])} at position ${at}`
        : `the body is not valid JSON: unexpected end at position ${at}`,
    )
  }
  const skipSpace = (): void => {
    for (;;) {
      const code = text.charCodeAt(at)
      if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return
      at += 1
    }
  }
  const readString = (): string => {
    const start = at
    let end = at + 1
    let escaped = false
    for (;;) {
      if (end >= text.length) {
        at = text.length
        return unexpected()
      }
      const code = text.charCodeAt(end)
      if (code === 34) break
      if (code === 92) {
        escaped = true
        end += 2
      } else if (code < 32) {
        at = end
        return unexpected()
      } else end += 1
    }
    at = end + 1
    if (!escaped) return text.slice(start + 1, end)
    // The escapes are JSON.parse's to decode (and to refuse): the quoted string alone is JSON.
    try {
      return JSON.parse(text.slice(start, end + 1)) as string
    } catch {
      throw new Refusal(`the body is not valid JSON: an invalid escape in the string at position ${start}`)
    }
  }
  const readDigits = (): void => {
    if (!isDigit(text.charCodeAt(at))) unexpected()
    while (isDigit(text.charCodeAt(at))) at += 1
  }
  const readNumber = (): number => {
    const start = at
    if (text.charCodeAt(at) === 45) at += 1
    if (text.charCodeAt(at) === 48) at += 1
    else readDigits()
    let integerSyntax = true
    if (text.charCodeAt(at) === 46) {
      at += 1
      readDigits()
      integerSyntax = false
    }
    const exponent = text.charCodeAt(at)
    if (exponent === 101 || exponent === 69) {
      at += 1
      const sign = text.charCodeAt(at)
      if (sign === 43 || sign === 45) at += 1
      readDigits()
      integerSyntax = false
    }
    const literal = text.slice(start, at)
    const value = Number(literal)
    return integerSyntax || !Number.isInteger(value) || denotesInteger(literal) ? value : NaN
  }
  const readWord = <A>(word: string, value: A): A => {
    if (!text.startsWith(word, at)) unexpected()
    at += word.length
    return value
  }
  const readValue = (depth: number): unknown => {
    skipSpace()
    switch (text.charCodeAt(at)) {
      case 123:
        return readObject(depth + 1)
      case 91:
        return readArray(depth + 1)
      case 34:
        return readString()
      case 116:
        return readWord('true', true)
      case 102:
        return readWord('false', false)
      case 110:
        return readWord('null', null)
      default:
        return readNumber()
    }
  }
  const enter = (depth: number): void => {
    if (depth > maxDepth) throw new Refusal(`the body nests deeper than ${maxDepth} levels`)
    at += 1
    skipSpace()
  }
  const readObject = (depth: number): Record<string, unknown> => {
    enter(depth)
    const object: Record<string, unknown> = {}
    if (text.charCodeAt(at) === 125) {
      at += 1
      return object
    }
    for (;;) {
      if (text.charCodeAt(at) !== 34) unexpected()
      const key = readString()
      if (key === '__proto__') throw new Refusal('the body is not valid JSON: a "__proto__" key is refused')
      skipSpace()
      if (text.charCodeAt(at) !== 58) unexpected()
      at += 1
      // Like JSON.parse, a repeated key keeps its last value. No other key is special on a plain object.
      object[key] = readValue(depth)
      skipSpace()
      const next = text.charCodeAt(at)
      at += 1
      if (next === 125) return object
      if (next !== 44) {
        at -= 1
        unexpected()
      }
      skipSpace()
    }
  }
  const readArray = (depth: number): unknown[] => {
    enter(depth)
    const array: unknown[] = []
    if (text.charCodeAt(at) === 93) {
      at += 1
      return array
    }
    for (;;) {
      array.push(readValue(depth))
      skipSpace()
      const next = text.charCodeAt(at)
      at += 1
      if (next === 93) return array
      if (next !== 44) {
        at -= 1
        unexpected()
      }
    }
  }
  try {
    const value = readValue(0)
    skipSpace()
    if (at < text.length) unexpected()
    return E.right(value)
  } catch (error) {
    if (error instanceof Refusal) return E.left(error.problem)
    throw error
  }
}
