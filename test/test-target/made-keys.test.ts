import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { MADE_KEY_FORM, madeKeys } from '../../adapters/test-target/made-keys.js'
import { readConfig } from '../../src/main/config.js'

/** A clock the test moves, in milliseconds. */
const clock = () => {
  let time = 1_000_000
  return { now: () => time, advance: (seconds: number) => void (time += seconds * 1000) }
}

const made = (registry: ReturnType<typeof madeKeys>) => {
  const result = registry.make()
  if (E.isLeft(result)) throw new Error(`no key was made: ${JSON.stringify(result.left)}`)
  return result.right
}

const MadeKeys = suite('madeKeys')

MadeKeys('makes a new key each time, of the documented form, which a configured key could be too', () => {
  const registry = madeKeys()
  const keys = Array.from({ length: 50 }, () => made(registry).key)
  assert.is(new Set(keys).size, 50)
  for (const key of keys) {
    assert.match(key, new RegExp(`^${MADE_KEY_FORM.prefix}[A-Za-z0-9_-]{43}$`))
    assert.is(key.length, MADE_KEY_FORM.length)
  }
  const configured = readConfig({ PETSTORE_API_KEYS: keys.join(',') }, () => 'generated-key-for-tests')
  assert.equal(E.isRight(configured) && configured.right.apiKeys, { source: 'configured', keys })
})

MadeKeys('finds the client of a key it made, and nothing for a key that differs in one character, is cut short or extended', () => {
  const registry = madeKeys()
  const { key, client } = made(registry)
  assert.equal(registry.find(key), client)
  assert.is(client.keyId.length, 8)
  assert.not.match(client.scope, key)
  const last = key.at(-1) === 'A' ? 'B' : 'A'
  for (const other of [`${key.slice(0, -1)}${last}`, key.slice(0, -1), `${key}A`, 'configured-key-0123456789']) {
    assert.is(registry.find(other), undefined, other)
  }
})

MadeKeys('ends a key at once: it is found no more, and its scope is no longer open; a configured scope always is', () => {
  const registry = madeKeys()
  const { key, client } = made(registry)
  assert.ok(registry.isOpen(client.scope))
  assert.ok(registry.end(client.scope))
  assert.is(registry.find(key), undefined)
  assert.not.ok(registry.isOpen(client.scope))
  assert.ok(registry.isMade(client.scope))
  assert.not.ok(registry.end(client.scope))
  const configuredScope = 'a'.repeat(64)
  assert.ok(registry.isOpen(configuredScope))
  assert.not.ok(registry.isMade(configuredScope))
  assert.is(registry.size(), 0)
})

MadeKeys('expires a key idle for idleSeconds; each use starts its idle time again', () => {
  const time = clock()
  const registry = madeKeys({ idleSeconds: 60, now: time.now })
  const used = made(registry)
  const idle = made(registry)
  time.advance(59)
  assert.equal(registry.find(used.key), used.client)
  time.advance(1)
  assert.is(registry.find(idle.key), undefined)
  assert.equal(registry.find(used.key), used.client)
  time.advance(60)
  assert.is(registry.find(used.key), undefined)
})

MadeKeys('sweeps the expired keys, least recently used first, and keeps the others', () => {
  const time = clock()
  const registry = madeKeys({ idleSeconds: 60, now: time.now })
  const [first, second, third] = [made(registry), made(registry), made(registry)]
  time.advance(30)
  registry.find(first.key)
  time.advance(30)
  assert.equal(registry.sweep(), [second.client.scope, third.client.scope])
  assert.is(registry.size(), 1)
  assert.ok(registry.isOpen(first.client.scope))
  assert.not.ok(registry.isOpen(second.client.scope))
  assert.equal(registry.sweep(), [])
})

MadeKeys('makes at most max keys at once; when full, answers when the least recently used one expires', () => {
  const time = clock()
  const registry = madeKeys({ max: 2, idleSeconds: 60, now: time.now })
  const first = made(registry)
  time.advance(10)
  made(registry)
  time.advance(0.5)
  registry.find(first.key)
  // The second key, unused since it was made, expires first: 59.5 s from now, said in whole seconds.
  assert.equal(registry.make(), E.left({ max: 2, retryAfterSeconds: 60 }))
  time.advance(59)
  assert.equal(registry.make(), E.left({ max: 2, retryAfterSeconds: 1 }))
  registry.end(first.client.scope)
  assert.ok(E.isRight(registry.make()))
  assert.is(registry.size(), 2)
})

MadeKeys.run()
