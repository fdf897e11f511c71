import { readFileSync } from 'node:fs'
import { getHeapStatistics } from 'node:v8'
import { apSecond } from 'fp-ts/Apply'
import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as RA from 'fp-ts/ReadonlyArray'
import * as t from 'io-ts'
import { SafeIntegerText, safeIntegerText } from '../domain/integer-text.js'
import { type ApiKeys, apiKeysCodec } from './api-keys-setting.js'
import { readSeed, type Seed } from './seed/read-seed.js'
import { codecOf, type Env, onOff, readAll, type Read, readSetting, refused, Validation, withDefault } from './setting-read.js'
import { REMOVED_SETTINGS } from './settings.js'
import { type MadeSandboxesConfig, madeSandboxesSetting, madeSandboxesThatFit } from './made-sandboxes-config.js'
import { type StoreConfig, storeSetting } from './store-config.js'

export interface Config {
  readonly store: StoreConfig
  readonly port: number
  readonly host: string
  readonly apiKeys: ApiKeys
  readonly maxBodyBytes: number
  readonly cursorSecret: string | undefined
  readonly logLevel: string
  /** Origins allowed to call the API from a browser; undefined: CORS off. */
  readonly corsOrigins: '*' | ReadonlyArray<string> | undefined
  /** Requests per API key per minute; undefined: no limit. */
  readonly rateLimit: number | undefined
  readonly metrics: boolean
  /** The pets an empty store starts from; undefined: none. */
  readonly seed: Seed | undefined
  /**
   * PETSTORE_TEST_TARGET=on: the whole test target (docs/guides/settings.md#the-test-target):
   * each API key has a sandbox of its own, and clients may force failures and delays.
   */
  readonly testTarget: boolean
  /** With the test target, how many POST /v1/sandboxes may have open at once, and how long each may go unused. */
  readonly madeSandboxes: MadeSandboxesConfig
  /**
   * Whether the process shuts down, as on SIGTERM, when its standard input closes: for a harness that
   * starts it through a wrapper that does not pass signals on (npx).
   */
  readonly stopOnStdinClose: boolean
}

const DEFAULT_PORT = 8080
/** The largest request body accepted, in bytes, unless PETSTORE_MAX_BODY_BYTES says otherwise: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024
const DEFAULT_HOST = '127.0.0.1'
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
const MIN_CURSOR_SECRET_LENGTH = 16

const Port = withDefault(DEFAULT_PORT, SafeIntegerText(0, 65535))
const Host = withDefault(DEFAULT_HOST, t.string)
const MaxBodyBytes = withDefault(DEFAULT_MAX_BODY_BYTES, SafeIntegerText(1, 100 * 1024 * 1024))

const CursorSecret = withDefault<string | undefined>(
  undefined,
  codecOf('CursorSecret', (secret: string) =>
    secret.length >= MIN_CURSOR_SECRET_LENGTH ? E.right(secret) : E.left(`must be at least ${MIN_CURSOR_SECRET_LENGTH} characters`),
  ),
)

/** LOG_LEVEL: `info` when unset; set, even to nothing, one of LOG_LEVELS. */
const LogLevel = codecOf('LogLevel', (level: string | undefined = 'info') =>
  LOG_LEVELS.includes(level) ? E.right(level) : E.left(`must be one of ${LOG_LEVELS.join(', ')}`),
)

const CorsOrigins = codecOf('CorsOrigins', (setting: string | undefined): E.Either<string, '*' | ReadonlyArray<string> | undefined> => {
  const text = (setting ?? '').trim()
  if (text === '') return E.right(undefined)
  if (text === '*') return E.right('*')
  const origins = text.split(',').map((origin) => origin.trim())
  // An origin is exactly scheme://host[:port], as browsers send it in the Origin header.
  const bad = origins.filter((origin) => !/^https?:\/\/(?:[^/\s:[\]]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/.test(origin))
  return bad.length === 0
    ? E.right(origins)
    : E.left(`must be * or comma-separated origins like https://app.example.com (not: ${bad.join(', ')})`)
})

const RateLimit = codecOf('RateLimit', (setting: string | undefined): E.Either<string, number | undefined> => {
  const text = (setting ?? '').trim()
  if (text === '' || text === 'off') return E.right(undefined)
  const limit = safeIntegerText(text, 1, 1_000_000)
  return limit !== undefined ? E.right(limit) : E.left('must be off or a number of requests per minute from 1 to 1000000')
})

/** A setting no longer read stops start-up, naming what replaced it, rather than being ignored. */
const removedSettings = (env: Env): Read<ReadonlyArray<undefined>> =>
  pipe(
    REMOVED_SETTINGS,
    RA.traverse(Validation)(({ name, replacement }) =>
      readSetting(env, name, withDefault(undefined, refused(`is no longer read: ${replacement}`))),
    ),
  )

/** Sandboxes per key would need collections per key on MongoDB, which resets would race with. */
const testTargetOnMemory = (config: Config): Read<Config> =>
  config.testTarget && config.store.kind === 'mongodb'
    ? E.left([
        'PETSTORE_TEST_TARGET=on needs the embedded store (PETSTORE_STORE=memory): its sandboxes are for ' +
          'client developers running one instance, and on MongoDB they would need collections per key ' +
          'that resets race with (docs/adr/2003-per-key-sandboxes-on-the-embedded-store-only.md)',
      ])
    : E.right(config)

/** With the test target, as many made sandboxes as fit in half of `heapBytes`. */
const madeSandboxesInHeap =
  (env: Env, heapBytes: number) =>
  (config: Config): Read<Config> =>
    config.testTarget
      ? pipe(
          madeSandboxesThatFit(env, config.madeSandboxes, {
            keys: config.apiKeys.source === 'configured' ? config.apiKeys.keys.length : 1,
            seededPets: config.seed?.pets.length ?? 0,
            heapBytes,
          }),
          E.map((madeSandboxes) => ({ ...config, madeSandboxes })),
        )
      : E.right(config)

const readTextFile = (path: string): string => readFileSync(path, 'utf8')

/**
 * Reads every setting and reports every problem at once, each naming its variable; then the rules
 * between settings. `readText` reads the seed file named by PETSTORE_SEED; `heapBytes` is the heap
 * the test target's sandboxes must fit in half of (this process's).
 */
export const readConfig = (
  env: Env,
  generateKey: () => string,
  readText: (path: string) => string = readTextFile,
  heapBytes: number = getHeapStatistics().heap_size_limit,
): Read<Config> => {
  // Read first: whether the made sandboxes' settings may be set depends on it.
  const testTarget = readSetting(env, 'PETSTORE_TEST_TARGET', onOff(false))
  const settings = readAll({
    store: storeSetting(env),
    port: readSetting(env, 'PORT', Port),
    host: readSetting(env, 'HOST', Host),
    maxBodyBytes: readSetting(env, 'PETSTORE_MAX_BODY_BYTES', MaxBodyBytes),
    apiKeys: readSetting(env, 'PETSTORE_API_KEYS', apiKeysCodec(env.NODE_ENV === 'production', generateKey)),
    cursorSecret: readSetting(env, 'PETSTORE_CURSOR_SECRET', CursorSecret),
    logLevel: readSetting(env, 'LOG_LEVEL', LogLevel),
    corsOrigins: readSetting(env, 'PETSTORE_CORS_ORIGINS', CorsOrigins),
    rateLimit: readSetting(env, 'PETSTORE_RATE_LIMIT', RateLimit),
    metrics: readSetting(env, 'PETSTORE_METRICS', onOff(true)),
    stopOnStdinClose: readSetting(env, 'PETSTORE_STOP_ON_STDIN_CLOSE', onOff(false)),
    testTarget,
    madeSandboxes: madeSandboxesSetting(env, E.isRight(testTarget) ? testTarget.right : undefined),
    // A seed may hold many problems, each its own line.
    seed: readSeed(env.PETSTORE_SEED, readText),
  })
  return pipe(
    removedSettings(env),
    apSecond(Validation)(settings),
    E.flatMap(testTargetOnMemory),
    E.flatMap(madeSandboxesInHeap(env, heapBytes)),
  )
}
