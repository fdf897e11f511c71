import { createHash } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type MadeKeys, type MadeKeysOptions, madeKeys } from '../../adapters/test-target/made-keys.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { gatedInserts, idsOf, SEED, SEEDED_IDS } from '../support/sandbox-spaces.js'
import { journalOf } from '../support/journal-reads.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { capturedLogger } from '../support/captured-logger.js'
import { aNewPet } from '../support/pet-builder.js'
import { OTHER_KEY, type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

interface Made {
  readonly key: string
  readonly keyId: string
  readonly idleSeconds: number
}

const makeSandbox = async (api: RunningApi, key: string = TEST_KEY): Promise<Made> => {
  const response = await api.request('POST', '/v1/sandboxes', { key })
  assert.is(response.status, 201, response.text)
  return response.body as Made
}

/** A clock the test moves instead of waiting, in milliseconds. */
const testClock = () => {
  let time = 0
  return { now: () => time, advance: (seconds: number) => void (time += seconds * 1000) }
}

interface Context {
  api: RunningApi
  clock: ReturnType<typeof testClock>
  made: MadeKeys
  space: ReturnType<typeof memoryStore>['dataSets']
}

/** A suite whose every test gets an app with sandboxes and faults, its memory store, its made keys and their clock. */
const madeSandboxesSuite = (name: string, options: Omit<MadeKeysOptions, 'now'> = {}) => {
  const test = suite<Context>(name, {} as Context)
  test.before.each(async (context) => {
    context.clock = testClock()
    context.made = madeKeys({ ...options, now: context.clock.now })
    context.space = memoryStore(SEED).dataSets
    context.api = await startApi({ sandboxes: context.space, madeKeys: context.made })
  })
  test.after.each(async (context) => {
    await context.api.close()
  })
  return test
}

const Made = madeSandboxesSuite('Sandboxes made at run time')

Made('A sandbox is made with a configured key: 201 with a new key, shown once, never stored by a cache', async ({ api }) => {
  const response = await api.request('POST', '/v1/sandboxes')
  assert.is(response.status, 201)
  assert.is(response.headers.get('cache-control'), 'no-store')
  assert.is(response.headers.get('location'), '/v1/sandbox')
  const made = response.body as Made
  assert.equal(Object.keys(made).sort(), ['idleSeconds', 'key', 'keyId'])
  assert.match(made.key, /^sandbox_[A-Za-z0-9_-]{43}$/)
  assert.is(made.keyId, createHash('sha256').update(made.key).digest('hex').slice(0, 8))
  assert.is(made.idleSeconds, 3600)
  const other = await makeSandbox(api, OTHER_KEY)
  assert.is.not(other.key, made.key)
})

Made('A made key works at once for every operation, in a sandbox of its own that starts from the seed', async ({ api }) => {
  const { key } = await makeSandbox(api)
  assert.equal(idsOf((await api.request('GET', '/v1/pets', { key })).body), SEEDED_IDS)
  const created = await api.request('POST', '/v1/pets', { key, body: aNewPet({ name: 'Mine' }), headers: { 'idempotency-key': 'k-1' } })
  assert.is(created.status, 201)
  assert.is((created.body as { id: number }).id, 6)
  const replayed = await api.request('POST', '/v1/pets', { key, body: aNewPet({ name: 'Mine' }), headers: { 'idempotency-key': 'k-1' } })
  assert.equal(replayed.body, created.body)
  assert.is((await api.request('GET', '/v1/pets/6', { key })).status, 200)
  assertError(await api.request('GET', '/v1/pets/6'), 404, 'not_found')
  const script = [{ operation: 'getPet', fault: '503', times: 1, retryAfter: 0 }]
  assert.is((await api.request('PUT', '/v1/sandbox/faults', { key, body: script })).status, 200)
  assertError(await api.request('GET', '/v1/pets/1', { key }), 503, 'service_unavailable')
  assert.equal(
    (await journalOf(api, '?limit=100', key)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
    ['GET /v1/pets/1 503', 'GET /v1/pets/6 200', 'POST /v1/pets 201', 'POST /v1/pets 201', 'GET /v1/pets 200'],
  )
})

Made("A made sandbox is reset like a configured key's: back to the seed, its journal and fault script cleared", async ({ api }) => {
  const { key } = await makeSandbox(api)
  await api.request('POST', '/v1/pets', { key, body: aNewPet() })
  await api.request('PUT', '/v1/sandbox/faults', { key, body: [{ operation: 'listPets', fault: '500', times: 5 }] })
  assert.is((await api.request('POST', '/v1/sandbox/reset', { key })).status, 204)
  assert.equal(await journalOf(api, '?limit=100', key), [])
  assert.equal((await api.request('GET', '/v1/sandbox/faults', { key })).body, [])
  assert.equal(idsOf((await api.request('GET', '/v1/pets', { key })).body), SEEDED_IDS)
})

Made('A made key may make a sandbox too, which is tied to no other key and outlives the key that made it', async ({ api }) => {
  const parent = await makeSandbox(api)
  const child = await makeSandbox(api, parent.key)
  await api.request('POST', '/v1/pets', { key: parent.key, body: aNewPet({ name: 'Parent' }) })
  assert.equal(idsOf((await api.request('GET', '/v1/pets', { key: child.key })).body), SEEDED_IDS)
  assert.is((await api.request('DELETE', '/v1/sandbox', { key: parent.key })).status, 204)
  assert.is((await api.request('GET', '/v1/pets', { key: child.key })).status, 200)
})

Made('When a made sandbox is ended, then 204, and its key is 401 on every path', async ({ api }) => {
  const { key } = await makeSandbox(api)
  await api.request('POST', '/v1/pets', { key, body: aNewPet() })
  const ended = await api.request('DELETE', '/v1/sandbox', { key })
  assert.is(ended.status, 204)
  assert.is(ended.text, '')
  for (const [method, path] of [
    ['GET', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['GET', '/v1/pets/6'],
    ['POST', '/v1/sandboxes'],
    ['DELETE', '/v1/sandbox'],
    ['POST', '/v1/sandbox/reset'],
    ['GET', '/v1/sandbox/requests'],
    ['GET', '/v1/sandbox/faults'],
  ] as const) {
    assertError(await api.request(method, path, { key, body: method === 'POST' ? aNewPet() : undefined }), 401, 'unauthorized')
  }
})

Made(
  'When a made sandbox is ended, then all it held is freed: its pets and idempotency records, and its key',
  async ({ api, made, space }) => {
    const { key } = await makeSandbox(api)
    const held = space.size()
    await api.request('POST', '/v1/pets', { key, body: aNewPet(), headers: { 'idempotency-key': 'k-1' } })
    assert.is(space.size(), held + 1)
    assert.is(made.size(), 1)
    await api.request('DELETE', '/v1/sandbox', { key })
    assert.is(space.size(), held)
    assert.is(made.size(), 0)
  },
)

Made("A configured key's sandbox cannot be ended: 409 sandbox_not_deletable, and it works on as before", async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const refused = await api.request('DELETE', '/v1/sandbox')
  assert.match(assertError(refused, 409, 'sandbox_not_deletable'), 'POST /v1/sandbox/reset')
  assert.equal(idsOf((await api.request('GET', '/v1/pets')).body), [...SEEDED_IDS, 6])
})

Made('Making and ending sandboxes are not kept in any journal, and a made key reads [redacted] wherever it is sent', async ({ api }) => {
  const { key } = await makeSandbox(api)
  await api.request('POST', '/v1/pets', { body: aNewPet({ name: `not ${key} at all` }), headers: { 'x-request-id': `id-${key}` } })
  await api.request('GET', `/v1/pets?name=${encodeURIComponent(key)}`, { key })
  const other = await makeSandbox(api, key)
  await api.request('DELETE', '/v1/sandbox', { key: other.key })
  const mine = await journalOf(api, '?limit=100', TEST_KEY)
  const theirs = await journalOf(api, '?limit=100', key)
  assert.equal(
    [...mine, ...theirs].map((entry) => `${entry.method} ${entry.path}`),
    ['POST /v1/pets', 'GET /v1/pets?name=[redacted]'],
  )
  assert.equal(JSON.parse(mine[0]?.request.body ?? '{}'), aNewPet({ name: 'not [redacted] at all' }))
  assert.is(mine[0]?.response?.headers['x-request-id'], mine[0]?.id)
  assert.not.match(JSON.stringify([...mine, ...theirs]), 'sandbox_')
})

Made('Every method but POST on /v1/sandboxes, and but DELETE on /v1/sandbox, is 405 with Allow', async ({ api }) => {
  for (const [path, allow] of [
    ['/v1/sandboxes', 'POST'],
    ['/v1/sandbox', 'DELETE'],
  ] as const) {
    const refused = await api.request('GET', path)
    assertError(refused, 405, 'method_not_allowed')
    assert.is(refused.headers.get('allow'), allow)
    const options = await api.request('OPTIONS', path)
    assert.equal([options.status, options.headers.get('allow')], [204, allow])
  }
})

Made(
  'Memory stays bounded under churn: 300 sandboxes made, used and ended over HTTP leave nothing behind',
  async ({ api, made, space }) => {
    await api.request('GET', '/v1/pets')
    const held = space.size()
    for (let index = 0; index < 300; index += 1) {
      const { key } = await makeSandbox(api)
      assert.is((await api.request('POST', '/v1/pets', { key, body: aNewPet(), headers: { 'idempotency-key': `k-${index}` } })).status, 201)
      assert.is((await api.request('DELETE', '/v1/sandbox', { key })).status, 204)
    }
    assert.is(made.size(), 0)
    assert.is(space.size(), held)
  },
)

Made.run()

const Bounded = madeSandboxesSuite('Sandboxes made at run time, bounded: PETSTORE_SANDBOX_MAX=2, PETSTORE_SANDBOX_IDLE_SECONDS=60', {
  max: 2,
  idleSeconds: 60,
})

Bounded(
  'When as many made sandboxes as allowed are open, then 503 sandbox_limit_reached, with Retry-After until the least recently used expires',
  async ({ api, clock }) => {
    const first = await makeSandbox(api)
    clock.advance(10)
    await makeSandbox(api)
    clock.advance(5)
    await api.request('GET', '/v1/pets', { key: first.key })
    const refused = await api.request('POST', '/v1/sandboxes')
    assertError(refused, 503, 'sandbox_limit_reached')
    // The second, made 5 s ago and unused since, is the least recently used: it expires in 55 s.
    assert.is(refused.headers.get('retry-after'), '55')
    assert.is((await api.request('DELETE', '/v1/sandbox', { key: first.key })).status, 204)
    await makeSandbox(api)
  },
)

Bounded(
  'A made sandbox unused for PETSTORE_SANDBOX_IDLE_SECONDS ends: its key is 401 and its data freed; each request starts the time again',
  async ({ api, clock, made, space }) => {
    const used = await makeSandbox(api)
    const idle = await makeSandbox(api)
    await api.request('POST', '/v1/pets', { key: idle.key, body: aNewPet() })
    assert.is(idle.idleSeconds, 60)
    clock.advance(59)
    assert.is((await api.request('GET', '/v1/pets', { key: used.key })).status, 200)
    const held = space.size()
    clock.advance(1)
    assertError(await api.request('GET', '/v1/pets', { key: idle.key }), 401, 'unauthorized')
    assert.is(space.size(), held - 1)
    assert.is(made.size(), 1)
    assert.is((await api.request('GET', '/v1/pets', { key: used.key })).status, 200)
  },
)

Bounded('Sandboxes that expired make room: making one when as many as allowed are open ends those first', async ({ api, clock, made }) => {
  const [first, second] = [await makeSandbox(api), await makeSandbox(api)]
  clock.advance(60)
  await makeSandbox(api, OTHER_KEY)
  assert.is(made.size(), 1)
  for (const { key } of [first, second]) assertError(await api.request('GET', '/v1/pets', { key }), 401, 'unauthorized')
})

Bounded.run()

const Counted = suite('Sandboxes made at run time, with PETSTORE_RATE_LIMIT=100 and PETSTORE_SANDBOX_IDLE_SECONDS=60')

Counted(
  'A made sandbox that ends, by DELETE or by expiry, takes its rate-limit counts with it, however far its clock was moved',
  async () => {
    const clock = testClock()
    const store = memoryStore(SEED)
    const api = await startApi({
      sandboxes: store.dataSets,
      madeKeys: madeKeys({ idleSeconds: 60, now: clock.now }),
      rateLimit: { limit: 100, counter: store.rateLimits },
    })
    try {
      const [deleted, expired] = [await makeSandbox(api), await makeSandbox(api)]
      for (const { key } of [deleted, expired]) {
        // Counted in the sandbox's own quota, then in its main one on a clock a day ahead.
        assert.is((await api.request('POST', '/v1/sandbox/clock', { key, body: { advance: 86_400_000 } })).status, 200)
        assert.is((await api.request('GET', '/v1/pets', { key })).status, 200)
      }
      // Two counts of each made key, and the configured key's, which made them.
      assert.is(store.rateLimits.size(), 5)
      assert.is((await api.request('DELETE', '/v1/sandbox', { key: deleted.key })).status, 204)
      assert.is(store.rateLimits.size(), 3)
      clock.advance(60)
      assertError(await api.request('GET', '/v1/pets', { key: expired.key }), 401, 'unauthorized')
      assert.is(store.rateLimits.size(), 1)
    } finally {
      await api.close()
    }
  },
)

Counted.run()

const InFlight = suite('Sandboxes made at run time, ended with a create in flight')

InFlight('When a made sandbox ends while a create of its key is in flight, then the create is answered and nothing is kept', async () => {
  const gated = gatedInserts(SEED)
  const log = capturedLogger()
  const api = await startApi({ sandboxes: gated.space, logger: log.logger })
  try {
    const { key, keyId } = await makeSandbox(api)
    const creating = api.request('POST', '/v1/pets', { key, body: aNewPet(), headers: { 'idempotency-key': 'in-flight' } })
    // Should the test fail before awaiting it, closing the server must not crash the whole run.
    creating.catch(() => undefined)
    await gated.atGate
    const held = gated.size()
    assert.is((await api.request('DELETE', '/v1/sandbox', { key })).status, 204)
    gated.open()
    assert.is((await creating).status, 201)
    assert.is(gated.size(), held - 1)
    assertError(await api.request('GET', '/v1/pets', { key }), 401, 'unauthorized')
    const lines = log.lines().filter((line) => line.msg === 'request' && line.keyId === keyId)
    assert.equal(
      lines.map((line) => `${String(line.method)} ${String(line.status)}`),
      ['DELETE 204', 'POST 201'],
    )
    assert.not.match(log.raw(), key)
  } finally {
    await api.close()
  }
})

InFlight.run()

const Off = apiSuite('PETSTORE_TEST_TARGET=off: no sandboxes are made')

Off('When sandboxes are off, then making and ending sandboxes answer like any unknown path', async ({ api }) => {
  assertError(await api.request('POST', '/v1/sandboxes'), 404, 'route_not_found')
  assertError(await api.request('DELETE', '/v1/sandbox'), 404, 'route_not_found')
  assertError(await api.request('POST', '/v1/sandboxes', { key: false }), 401, 'unauthorized')
})

Off.run()
