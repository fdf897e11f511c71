import * as E from 'fp-ts/Either'
import { DEFAULT_MAX_BODY_BYTES } from '../adapters/http/json-body.js'

/** Where the API keys came from: the environment, or generated for this development run. */
export type ApiKeys =
  | { readonly source: 'configured'; readonly keys: ReadonlyArray<string> }
  | { readonly source: 'generated'; readonly key: string }

export interface Config {
  readonly port: number
  readonly host: string
  readonly apiKeys: ApiKeys
  readonly maxBodyBytes: number
  readonly cursorSecret: string | undefined
  readonly logLevel: string
}

export const DEFAULT_PORT = 8080
export const DEFAULT_HOST = '127.0.0.1'
export const MIN_KEY_LENGTH = 16
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
/** RFC 6750 b64token: what can be sent after `Bearer ` unchanged. */
const KEY_SYNTAX = /^[A-Za-z0-9\-._~+/]+=*$/

type Env = Readonly<Record<string, string | undefined>>
type Read<A> = E.Either<string, A>

const integerSetting = (env: Env, name: string, fallback: number, min: number, max: number): Read<number> => {
  const text = env[name]
  if (text === undefined || text === '') return E.right(fallback)
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN
  return value >= min && value <= max ? E.right(value) : E.left(`${name} must be an integer from ${min} to ${max}`)
}

const apiKeysSetting = (env: Env, generateKey: () => string): Read<ApiKeys> => {
  const text = env.PETSTORE_API_KEYS ?? ''
  if (text.trim() === '') {
    return env.NODE_ENV === 'production'
      ? E.left('PETSTORE_API_KEYS must list at least one API key when NODE_ENV=production')
      : E.right({ source: 'generated', key: generateKey() })
  }
  const keys = text.split(',').map((key) => key.trim())
  // Name the position, never the key: configured keys appear nowhere, not even in errors.
  const problems = keys.flatMap((key, index) => {
    if (key.length < MIN_KEY_LENGTH) return [`key ${index + 1} is shorter than ${MIN_KEY_LENGTH} characters`]
    if (!KEY_SYNTAX.test(key)) return [`key ${index + 1} has characters a Bearer token cannot carry`]
    return []
  })
  return problems.length > 0
    ? E.left(`PETSTORE_API_KEYS is invalid: ${problems.join('; ')}`)
    : E.right({ source: 'configured', keys })
}

const MIN_CURSOR_SECRET_LENGTH = 16

const cursorSecretSetting = (env: Env): Read<string | undefined> => {
  const secret = env.PETSTORE_CURSOR_SECRET
  if (secret === undefined || secret === '') return E.right(undefined)
  return secret.length >= MIN_CURSOR_SECRET_LENGTH
    ? E.right(secret)
    : E.left(`PETSTORE_CURSOR_SECRET must be at least ${MIN_CURSOR_SECRET_LENGTH} characters`)
}

const logLevelSetting = (env: Env): Read<string> => {
  const level = env.LOG_LEVEL ?? 'info'
  return LOG_LEVELS.includes(level) ? E.right(level) : E.left(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
}

/** Reads every setting and reports every problem at once, each naming its variable. */
export const readConfig = (env: Env, generateKey: () => string): E.Either<ReadonlyArray<string>, Config> => {
  const port = integerSetting(env, 'PORT', DEFAULT_PORT, 0, 65535)
  const maxBodyBytes = integerSetting(env, 'PETSTORE_MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES, 1, 100 * 1024 * 1024)
  const apiKeys = apiKeysSetting(env, generateKey)
  const cursorSecret = cursorSecretSetting(env)
  const logLevel = logLevelSetting(env)
  if (E.isLeft(port) || E.isLeft(maxBodyBytes) || E.isLeft(apiKeys) || E.isLeft(cursorSecret) || E.isLeft(logLevel)) {
    const reads = [port, maxBodyBytes, apiKeys, cursorSecret, logLevel]
    return E.left(reads.flatMap((read) => (E.isLeft(read) ? [read.left] : [])))
  }
  return E.right({
    port: port.right,
    host: env.HOST === undefined || env.HOST === '' ? DEFAULT_HOST : env.HOST,
    apiKeys: apiKeys.right,
    maxBodyBytes: maxBodyBytes.right,
    cursorSecret: cursorSecret.right,
    logLevel: logLevel.right,
  })
}
