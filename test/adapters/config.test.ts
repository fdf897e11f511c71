import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readConfig } from '../../src/config.js'

const generated = (): string => 'generated-key-for-tests'
const KEY = 'configured-key-0123456789'
const Config = suite('readConfig')

Config('uses the documented defaults and generates a key outside production', () => {
  assert.equal(
    readConfig({}, generated),
    E.right({
      port: 8080,
      host: '127.0.0.1',
      apiKeys: { source: 'generated', key: 'generated-key-for-tests' },
      maxBodyBytes: 1048576,
      cursorSecret: undefined,
      logLevel: 'info',
    }),
  )
})

Config('reads every setting from the environment', () => {
  const config = readConfig(
    { PORT: '9090', HOST: '0.0.0.0', PETSTORE_API_KEYS: `${KEY}, second-key-0123456789`, PETSTORE_MAX_BODY_BYTES: '2048', PETSTORE_CURSOR_SECRET: 'cursor-secret-0123456789', LOG_LEVEL: 'warn' },
    generated,
  )
  assert.equal(
    config,
    E.right({
      port: 9090,
      host: '0.0.0.0',
      apiKeys: { source: 'configured', keys: [KEY, 'second-key-0123456789'] },
      maxBodyBytes: 2048,
      cursorSecret: 'cursor-secret-0123456789',
      logLevel: 'warn',
    }),
  )
})

Config('refuses to start in production without keys', () => {
  assert.equal(readConfig({ NODE_ENV: 'production' }, generated), E.left(['PETSTORE_API_KEYS must list at least one API key when NODE_ENV=production']))
})

Config('names each invalid variable, and never the key', () => {
  const result = readConfig(
    { PORT: 'abc', PETSTORE_API_KEYS: 'short-key', PETSTORE_MAX_BODY_BYTES: '0', PETSTORE_CURSOR_SECRET: 'short', LOG_LEVEL: 'loud' },
    generated,
  )
  assert.equal(
    result,
    E.left([
      'PORT must be an integer from 0 to 65535',
      'PETSTORE_MAX_BODY_BYTES must be an integer from 1 to 104857600',
      'PETSTORE_API_KEYS is invalid: key 1 is shorter than 16 characters',
      'PETSTORE_CURSOR_SECRET must be at least 16 characters',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ]),
  )
})

Config('refuses a key with characters a Bearer token cannot carry', () => {
  assert.equal(
    readConfig({ PETSTORE_API_KEYS: `${KEY},has spaces inside the key` }, generated),
    E.left(['PETSTORE_API_KEYS is invalid: key 2 has characters a Bearer token cannot carry']),
  )
})

Config('refuses a port beyond 65535', () => {
  assert.ok(E.isLeft(readConfig({ PORT: '70000' }, generated)))
})

Config.run()
