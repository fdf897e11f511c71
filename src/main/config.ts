import { readFileSync } from 'node:fs'
import { getHeapStatistics } from 'node:v8'
import * as E from 'fp-ts/Either'
import { DEFAULT_MAX_BODY_BYTES } from '../../adapters/http/json-body.js'
import { type ApiKeys, apiKeysSetting } from './api-keys-setting.js'
import { readSeed, type Seed } from './seed/read-seed.js'
import { type Env, integerSetting, type Read } from './setting-read.js'
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
  /** Whether the process shuts down, as on SIGTERM, when its standard input closes. */
  readonly stopOnStdinClose: boolean
}

const DEFAULT_PORT = 8080
const DEFAULT_HOST = '127.0.0.1'
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

const MIN_CURSOR_SECRET_LENGTH = 16

const cursorSecretSetting = (env: Env): Read<string | undefined> => {
  const secret = env.PETSTORE_CURSOR_SECRET
  if (secret === undefined || secret === '') return E.right(undefined)
  return secret.length >= MIN_CURSOR_SECRET_LENGTH
    ? E.right(secret)
    : E.left(`PETSTORE_CURSOR_SECRET must be at least ${MIN_CURSOR_SECRET_LENGTH} characters`)
}

const corsSetting = (env: Env): Read<'*' | ReadonlyArray<string> | undefined> => {
  const text = (env.PETSTORE_CORS_ORIGINS ?? '').trim()
  if (text === '') return E.right(undefined)
  if (text === '*') return E.right('*')
  const origins = text.split(',').map((origin) => origin.trim())
  // An origin is exactly scheme://host[:port], as browsers send it in the Origin header.
  const bad = origins.filter((origin) => !/^https?:\/\/(?:[^/\s:[\]]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/.test(origin))
  return bad.length === 0
    ? E.right(origins)
    : E.left(`PETSTORE_CORS_ORIGINS must be * or comma-separated origins like https://app.example.com (not: ${bad.join(', ')})`)
}

const rateLimitSetting = (env: Env): Read<number | undefined> => {
  const text = (env.PETSTORE_RATE_LIMIT ?? '').trim()
  if (text === '' || text === 'off') return E.right(undefined)
  return E.mapLeft(() => 'PETSTORE_RATE_LIMIT must be off or a number of requests per minute from 1 to 1000000')(
    integerSetting({ PETSTORE_RATE_LIMIT: text }, 'PETSTORE_RATE_LIMIT', 0, 1, 1_000_000),
  )
}

const metricsSetting = (env: Env): Read<boolean> => {
  const text = env.PETSTORE_METRICS ?? ''
  if (text === '' || text === 'on') return E.right(true)
  return text === 'off' ? E.right(false) : E.left('PETSTORE_METRICS must be on or off')
}

/**
 * PETSTORE_STOP_ON_STDIN_CLOSE: whether the end of standard input stops the process, for a harness
 * that starts it through a wrapper that does not pass signals on (npx).
 */
const stopOnStdinCloseSetting = (env: Env): Read<boolean> => {
  const text = env.PETSTORE_STOP_ON_STDIN_CLOSE ?? ''
  if (text === '' || text === 'off') return E.right(false)
  return text === 'on' ? E.right(true) : E.left('PETSTORE_STOP_ON_STDIN_CLOSE must be off or on')
}

/** PETSTORE_TEST_TARGET: whether the whole test target (sandboxes per key, and faults) is on. */
const testTargetSetting = (env: Env): Read<boolean> => {
  const text = env.PETSTORE_TEST_TARGET ?? ''
  if (text === '' || text === 'off') return E.right(false)
  return text === 'on' ? E.right(true) : E.left('PETSTORE_TEST_TARGET must be off or on')
}

const logLevelSetting = (env: Env): Read<string> => {
  const level = env.LOG_LEVEL ?? 'info'
  return LOG_LEVELS.includes(level) ? E.right(level) : E.left(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
}

/** A setting no longer read stops start-up, naming what replaced it, rather than being ignored. */
const removedSettings = (env: Env): ReadonlyArray<string> =>
  REMOVED_SETTINGS.flatMap(({ name, replacement }) => ((env[name] ?? '') === '' ? [] : [`${name} is no longer read: ${replacement}`]))

const readTextFile = (path: string): string => readFileSync(path, 'utf8')

/**
 * Reads every setting and reports every problem at once, each naming its variable. `readText`
 * reads the seed file named by PETSTORE_SEED; `heapBytes` is the heap the test target's sandboxes
 * must fit in half of (this process's).
 */
export const readConfig = (
  env: Env,
  generateKey: () => string,
  readText: (path: string) => string = readTextFile,
  heapBytes: number = getHeapStatistics().heap_size_limit,
): E.Either<ReadonlyArray<string>, Config> => {
  const store = storeSetting(env)
  const port = integerSetting(env, 'PORT', DEFAULT_PORT, 0, 65535)
  const maxBodyBytes = integerSetting(env, 'PETSTORE_MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES, 1, 100 * 1024 * 1024)
  const apiKeys = apiKeysSetting(env, generateKey)
  const cursorSecret = cursorSecretSetting(env)
  const logLevel = logLevelSetting(env)
  const corsOrigins = corsSetting(env)
  const rateLimit = rateLimitSetting(env)
  const metrics = metricsSetting(env)
  const stopOnStdinClose = stopOnStdinCloseSetting(env)
  const testTarget = testTargetSetting(env)
  const madeSandboxes = madeSandboxesSetting(env, E.isRight(testTarget) ? testTarget.right : undefined)
  // A seed may hold many problems, each its own line.
  const seed = readSeed(env.PETSTORE_SEED, readText)
  const removed = removedSettings(env)
  if (
    removed.length > 0 ||
    E.isLeft(store) ||
    E.isLeft(port) ||
    E.isLeft(maxBodyBytes) ||
    E.isLeft(apiKeys) ||
    E.isLeft(cursorSecret) ||
    E.isLeft(logLevel) ||
    E.isLeft(corsOrigins) ||
    E.isLeft(rateLimit) ||
    E.isLeft(metrics) ||
    E.isLeft(stopOnStdinClose) ||
    E.isLeft(testTarget) ||
    E.isLeft(madeSandboxes) ||
    E.isLeft(seed)
  ) {
    const reads = [port, maxBodyBytes, apiKeys, cursorSecret, logLevel, corsOrigins, rateLimit, metrics, stopOnStdinClose, testTarget]
    return E.left([
      ...removed,
      ...(E.isLeft(store) ? store.left : []),
      ...reads.flatMap((read) => (E.isLeft(read) ? [read.left] : [])),
      ...(E.isLeft(madeSandboxes) ? madeSandboxes.left : []),
      ...(E.isLeft(seed) ? seed.left : []),
    ])
  }
  if (store.right.kind === 'mongodb' && testTarget.right) {
    return E.left([
      'PETSTORE_TEST_TARGET=on needs the embedded store (PETSTORE_STORE=memory): its sandboxes are for ' +
        'client developers running one instance, and on MongoDB they would need collections per key ' +
        'that resets race with (docs/adr/2003-per-key-sandboxes-on-the-embedded-store-only.md)',
    ])
  }
  const made = testTarget.right
    ? madeSandboxesThatFit(env, madeSandboxes.right, {
        keys: apiKeys.right.source === 'configured' ? apiKeys.right.keys.length : 1,
        seededPets: seed.right?.pets.length ?? 0,
        heapBytes,
      })
    : E.right(madeSandboxes.right)
  if (E.isLeft(made)) return E.left([made.left])
  return E.right({
    store: store.right,
    port: port.right,
    host: env.HOST === undefined || env.HOST === '' ? DEFAULT_HOST : env.HOST,
    apiKeys: apiKeys.right,
    maxBodyBytes: maxBodyBytes.right,
    cursorSecret: cursorSecret.right,
    logLevel: logLevel.right,
    corsOrigins: corsOrigins.right,
    rateLimit: rateLimit.right,
    metrics: metrics.right,
    seed: seed.right,
    testTarget: testTarget.right,
    madeSandboxes: made.right,
    stopOnStdinClose: stopOnStdinClose.right,
  })
}
