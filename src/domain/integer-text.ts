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

/** The integer rule as a codec: integer text from `min` to `max` decodes to its number; `problem` says why not. */
export const IntegerText = (
  min: number,
  max: number,
  problem = `must be an integer from ${min} to ${max}`,
): t.Type<number, string, unknown> =>
  new t.Type<number, string, unknown>(
    'IntegerText',
    (input): input is number => Number.isSafeInteger(input) && (input as number) >= min && (input as number) <= max,
    (input, context) => {
      const value = safeIntegerText(input, min, max)
      return value === undefined ? t.failure(input, context, problem) : t.success(value)
    },
    String,
  )
