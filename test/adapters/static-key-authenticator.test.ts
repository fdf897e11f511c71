import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { keyIdOf, staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'

const KEYS = ['first-key-0123456789', 'second-key-0123456789']
const StaticKeyAuthenticator = suite('staticKeyAuthenticator')

StaticKeyAuthenticator('accepts every configured key and names its client by key id', async () => {
  const authenticator = staticKeyAuthenticator(KEYS)
  for (const key of KEYS) {
    const result = await authenticator.authenticate(key)()
    assert.equal(E.isRight(result) && result.right.keyId, keyIdOf(key))
  }
})

StaticKeyAuthenticator('gives each key a distinct full-length scope that does not contain the key', async () => {
  const authenticator = staticKeyAuthenticator(KEYS)
  const scopes = await Promise.all(
    KEYS.map(async (key) => {
      const result = await authenticator.authenticate(key)()
      return E.isRight(result) ? result.right.scope : ''
    }),
  )
  assert.ok(scopes.every((scope) => /^[0-9a-f]{64}$/.test(scope)))
  assert.is(new Set(scopes).size, KEYS.length)
  assert.ok(scopes.every((scope, index) => !scope.includes(KEYS[index] ?? '')))
})

StaticKeyAuthenticator('rejects a wrong key, a prefix, an extension and a key differing in case', async () => {
  const authenticator = staticKeyAuthenticator(KEYS)
  for (const key of ['wrong-key-0123456789', 'first-key-012345678', 'first-key-01234567890', 'FIRST-KEY-0123456789', '']) {
    assert.equal(await authenticator.authenticate(key)(), E.left({ _tag: 'Unauthorized', reason: 'invalid' }), key)
  }
})

StaticKeyAuthenticator('gives a short key id that does not contain the key', () => {
  const id = keyIdOf(KEYS[0] ?? '')
  assert.match(id, /^[0-9a-f]{8}$/)
  assert.not.ok((KEYS[0] ?? '').includes(id))
})

StaticKeyAuthenticator.run()
