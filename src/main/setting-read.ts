import { sequenceS } from 'fp-ts/Apply'
import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as RA from 'fp-ts/ReadonlyArray'
import * as t from 'io-ts'

/** The environment readConfig reads its settings from. */
export type Env = Readonly<Record<string, string | undefined>>

/** The value of one or more settings, or every problem with them, a line each naming its variable. */
export type Read<A> = E.Either<ReadonlyArray<string>, A>

/**
 * The codec of one setting: the text of its variable in (undefined when unset), its value out. A
 * failure's message says what is wrong ("must be on or off"), and readSetting names the variable.
 */
export type SettingCodec<A> = t.Decoder<string | undefined, A>

/** fp-ts's applicative validation: reads combined by it report the problems of every one, in order. */
export const Validation = E.getApplicativeValidation(RA.getSemigroup<string>())

/** A record of reads as one read of the record. */
export const readAll = sequenceS(Validation)

/** The variable `name` of `env` through `codec`, each problem after the variable's name: `PORT must be …`. */
export const readSetting = <A>(env: Env, name: string, codec: SettingCodec<A>): Read<A> =>
  pipe(
    codec.decode(env[name]),
    E.mapLeft((errors) => errors.map(({ message }) => `${name} ${message ?? 'is invalid'}`)),
  )

/** A codec that only decodes, from its validation: an io-ts Type less `is` and `encode`, which settings never use. */
const decoderOf = <I, A>(name: string, validate: t.Validate<I, A>): t.Decoder<I, A> => {
  const decoder: t.Decoder<I, A> = { name, validate, decode: (input) => validate(input, [{ key: '', type: decoder, actual: input }]) }
  return decoder
}

/** A decode-only codec from `read`: the value of its input, or what is wrong with it. */
export const codecOf = <I, A>(name: string, read: (input: I) => E.Either<string, A>): t.Decoder<I, A> =>
  decoderOf(name, (input, context) =>
    pipe(
      read(input),
      E.orElse((problem) => t.failure<A>(input, context, problem)),
    ),
  )

/** A setting with a default: unset or empty, `fallback`; any other text is `codec`'s to decode. */
export const withDefault = <A>(fallback: A, codec: t.Decoder<string, A>): SettingCodec<A> =>
  decoderOf(codec.name, (text, context) => (text === undefined || text === '' ? t.success(fallback) : codec.validate(text, context)))

/** Refuses any text, saying `problem`: with withDefault, a setting that may only be left unset or empty. */
export const refused = (problem: string): t.Decoder<string, never> => codecOf('Refused', () => E.left(problem))

/** An on/off switch, `fallback` when unset or empty; its problem names the default first: `must be off or on`. */
export const onOff = (fallback: boolean): SettingCodec<boolean> => {
  const problem = fallback ? 'must be on or off' : 'must be off or on'
  return withDefault(
    fallback,
    codecOf('OnOff', (text: string) => (text === 'on' ? E.right(true) : text === 'off' ? E.right(false) : E.left(problem))),
  )
}
