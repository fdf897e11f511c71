import * as E from 'fp-ts/Either'
import type * as t from 'io-ts'
import { SafeIntegerText } from '../domain/integer-text.js'
import { DEFAULT_SANDBOX_BUDGET, DEFAULT_SANDBOX_IDLE_SECONDS, DEFAULT_SANDBOX_MAX, sandboxBytes } from '../store/sandbox-budget.js'
import { type Env, readAll, type Read, readSetting, refused, withDefault } from './setting-read.js'

/** The settings of the sandboxes made at run time (POST /v1/sandboxes), and the heap they must fit in. */
export interface MadeSandboxesConfig {
  readonly max: number
  readonly idleSeconds: number
  /** Why `max` is below its default, when PETSTORE_SANDBOX_MAX is unset: for the start-up log. */
  readonly lowered?: string
}

/** The longest PETSTORE_SANDBOX_IDLE_SECONDS: a week. */
const MAX_SANDBOX_IDLE_SECONDS = 604_800

/**
 * The codec of a setting of the made sandboxes. They are read for the test target only: set while
 * it is off (`testTarget` false), each is refused, since a value that does nothing must not look as
 * if it did.
 */
const madeSandboxesCodec = (testTarget: boolean | undefined, fallback: number, codec: t.Decoder<string, number>) =>
  withDefault(
    fallback,
    testTarget === false ? refused('is read only with PETSTORE_TEST_TARGET=on: unset it, or turn the test target on') : codec,
  )

/** The bounds of the sandboxes made at run time, with the test target on (`testTarget`), off or unknown (undefined). */
export const madeSandboxesSetting = (env: Env, testTarget: boolean | undefined): Read<MadeSandboxesConfig> =>
  readAll({
    max: readSetting(env, 'PETSTORE_SANDBOX_MAX', madeSandboxesCodec(testTarget, DEFAULT_SANDBOX_MAX, SafeIntegerText(1, 100_000))),
    idleSeconds: readSetting(
      env,
      'PETSTORE_SANDBOX_IDLE_SECONDS',
      madeSandboxesCodec(testTarget, DEFAULT_SANDBOX_IDLE_SECONDS, SafeIntegerText(1, MAX_SANDBOX_IDLE_SECONDS)),
    ),
  })

const MIB = 1024 * 1024
const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`

/**
 * The made sandboxes bounded by memory too: every sandbox at its budget (the configured keys' and
 * the made ones, each with the seed's pets) must fit in half of the heap, leaving the other half to
 * the rest of the service. A PETSTORE_SANDBOX_MAX set above what fits stops start-up; unset, its
 * default is lowered to what fits, and `lowered` says so.
 */
export const madeSandboxesThatFit = (
  env: Env,
  made: MadeSandboxesConfig,
  { keys, seededPets, heapBytes }: { readonly keys: number; readonly seededPets: number; readonly heapBytes: number },
): Read<MadeSandboxesConfig> => {
  const each = sandboxBytes(DEFAULT_SANDBOX_BUDGET, seededPets)
  const fit = Math.floor(heapBytes / 2 / each) - keys
  const sizes =
    `half of this process's heap (${mib(heapBytes)}) holds ${fit + keys} sandboxes at their budget of ${mib(each)}, ` +
    `and the configured keys have ${keys}`
  if (fit < 1)
    return E.left([`PETSTORE_TEST_TARGET=on leaves no room for a made sandbox: ${sizes}; give node a larger heap (--max-old-space-size)`])
  if (made.max <= fit) return E.right(made)
  if ((env.PETSTORE_SANDBOX_MAX ?? '') !== '')
    return E.left([
      `PETSTORE_SANDBOX_MAX=${made.max} does not fit in memory: ${sizes}; set at most ${fit}, or give node a larger heap (--max-old-space-size)`,
    ])
  return E.right({ ...made, max: fit, lowered: `PETSTORE_SANDBOX_MAX is unset: at most ${fit} made sandboxes, not ${made.max}: ${sizes}` })
}
