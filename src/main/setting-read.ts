import * as E from 'fp-ts/Either'
import { safeIntegerText } from '../domain/integer-text.js'

/** The environment readConfig reads its settings from. */
export type Env = Readonly<Record<string, string | undefined>>
export type Read<A> = E.Either<string, A>

/** An integer setting from `min` to `max`, `fallback` when unset or empty; the problem names the variable. */
export const integerSetting = (env: Env, name: string, fallback: number, min: number, max: number): Read<number> => {
  const text = env[name]
  if (text === undefined || text === '') return E.right(fallback)
  // The API's one integer syntax and reader: no sign, no leading zero, no exponent.
  const value = safeIntegerText(text, min, max)
  return value !== undefined ? E.right(value) : E.left(`${name} must be an integer from ${min} to ${max}`)
}
