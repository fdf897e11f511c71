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
export const parseIntegerText = (text: unknown, min: bigint, max: bigint): bigint | undefined => {
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
