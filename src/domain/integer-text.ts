/**
 * The one integer syntax accepted in query strings and paths: optional minus sign, decimal digits,
 * no leading zeros, no plus sign, no spaces, no exponent. One spelling per number means one URL per pet.
 */
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]{0,19})$/

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

/** Reads canonical integer text as a bigint, so that values beyond 2^53 never round onto another. */
export const parseIntegerText = (text: string): bigint | undefined => (CANONICAL_INTEGER.test(text) ? BigInt(text) : undefined)
