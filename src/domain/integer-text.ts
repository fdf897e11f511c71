import * as t from 'io-ts'

/**
 * The one integer syntax accepted in query strings, paths, headers and settings: optional minus
 * sign, decimal digits, no leading zeros, no plus sign, no spaces, no exponent. One spelling per
 * number means one URL per pet.
 */
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]{0,19})$/

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

/**
 * The one integer parser: canonical integer text from `min` to `max`, read as a bigint so that
 * values beyond 2^53 never round onto another; undefined for anything else.
 */
const parseIntegerText = (text: unknown, min: bigint, max: bigint): bigint | undefined => {
  if (typeof text !== 'string' || !CANONICAL_INTEGER.test(text)) return undefined
  const value = BigInt(text)
  return value >= min && value <= max ? value : undefined
}

/** parseIntegerText for a range of safe integers, read as a number. */
export const safeIntegerText = (text: unknown, min: number, max: number): number | undefined => {
  const value = parseIntegerText(text, BigInt(min), BigInt(max))
  return value === undefined ? undefined : Number(value)
}

const codecOf = <A>(name: string, is: (input: unknown) => input is A, read: (input: unknown) => A | undefined, problem: string) =>
  new t.Type<A, string, unknown>(
    name,
    is,
    (input, context) => {
      const value = read(input)
      return value === undefined ? t.failure(input, context, problem) : t.success(value)
    },
    String,
  )

/** The integer rule as a codec: integer text from `min` to `max` decodes to its bigint; `problem` says why not. */
export const IntegerText = (
  min: bigint,
  max: bigint,
  problem = `must be an integer from ${min} to ${max}`,
): t.Type<bigint, string, unknown> =>
  codecOf(
    'IntegerText',
    (input): input is bigint => typeof input === 'bigint' && input >= min && input <= max,
    (input) => parseIntegerText(input, min, max),
    problem,
  )

/** IntegerText for a range of safe integers, decoding to a number. */
export const SafeIntegerText = (
  min: number,
  max: number,
  problem = `must be an integer from ${min} to ${max}`,
): t.Type<number, string, unknown> =>
  codecOf(
    'SafeIntegerText',
    (input): input is number => Number.isSafeInteger(input) && (input as number) >= min && (input as number) <= max,
    (input) => safeIntegerText(input, min, max),
    problem,
  )

/**
 * A JSON number literal as the client wrote it, handed over by the adapter where its parse would
 * round it to an integer (`0.99999999999999999` to 1, `1e-400` to 0): the integer rule judges the
 * text, so no integer the service reads is one the client did not write.
 */
export class NumberText {
  constructor(readonly text: string) {}

  /** Written back (a rule read back, say) as the number JSON.parse would have read. */
  toJSON(): number {
    return Number(this.text)
  }
}

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

/** The integer a JSON value is: a number that is one, or the text of one that denotes one. */
const integerOf = (input: unknown): number | undefined => {
  if (input instanceof NumberText) return denotesInteger(input.text) ? Number(input.text) : undefined
  return Number.isInteger(input) ? (input as number) : undefined
}

/**
 * The integer rule for a JSON value, as a codec: `notInteger` says why a value that is no integer
 * is refused, `problemOf` what is wrong with an integer (its range), or undefined when nothing is.
 */
export const JsonInteger = (
  name: string,
  notInteger: (input: unknown) => string,
  problemOf: (integer: number) => string | undefined,
): t.Type<number, number, unknown> =>
  new t.Type<number, number, unknown>(
    name,
    (input): input is number => Number.isInteger(input) && problemOf(input as number) === undefined,
    (input, context) => {
      const integer = integerOf(input)
      const problem = integer === undefined ? notInteger(input) : problemOf(integer)
      return problem === undefined && integer !== undefined ? t.success(integer) : t.failure(input, context, problem)
    },
    t.identity,
  )
