// What a fault script's rules are made of, and how GET writes them back: shared by a rule and its answer.
import { JsonInteger } from '../../src/domain/integer-text.js'

export type JsonObject = Readonly<Record<string, unknown>>

export const isJsonObject = (input: unknown): input is JsonObject => typeof input === 'object' && input !== null && !Array.isArray(input)

/** A header name is a token (RFC 9110 §5.1). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** An integer of a rule, written as the API writes integers, from `min` to `max`. */
export const integerIn = (name: string, min: number, max: number) => {
  const problem = `must be an integer from ${min} to ${max}`
  return JsonInteger(
    name,
    () => problem,
    (integer) => (integer >= min && integer <= max ? undefined : problem),
  )
}

/** `{ [name]: value }` when `value` is given, else nothing: spread into a rule, it leaves out what was not given. */
export const given = <A>(name: string, value: A | undefined): Readonly<Record<string, A>> => (value === undefined ? {} : { [name]: value })

/** Header names in lower case, their values as given. */
export const lowerCased = <A>(headers: Readonly<Record<string, A>> | undefined): Readonly<Record<string, A>> | undefined =>
  headers === undefined ? undefined : Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
