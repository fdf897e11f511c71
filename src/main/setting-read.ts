import * as E from 'fp-ts/Either'

/** The environment readConfig reads its settings from. */
export type Env = Readonly<Record<string, string | undefined>>
export type Read<A> = E.Either<string, A>

/** An integer setting from `min` to `max`, `fallback` when unset or empty; the problem names the variable. */
export const integerSetting = (env: Env, name: string, fallback: number, min: number, max: number): Read<number> => {
  const text = env[name]
  if (text === undefined || text === '') return E.right(fallback)
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN
  return value >= min && value <= max ? E.right(value) : E.left(`${name} must be an integer from ${min} to ${max}`)
}
