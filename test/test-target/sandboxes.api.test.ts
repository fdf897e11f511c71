import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { gatedInserts, idsOf, SEED, SEEDED_IDS } from '../support/sandbox-spaces.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet, aPet } from '../support/pet-builder.js'
import { OTHER_KEY } from '../support/start-api.js'

const nextLinkOf = (link: string | null): string => /^<([^>]+)>; rel="next"$/.exec(link ?? '')?.[1] ?? 'no next link'

const Sandboxes = apiSuite('Per-key sandboxes', () => ({ sandboxes: memoryStore(SEED).dataSets }))

Sandboxes('Each key starts from the seed, with its own ids counting on from it', async ({ api }) => {
  assert.equal(idsOf((await api.request('GET', '/v1/pets')).body), SEEDED_IDS)
  const mine = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Mine' }) })
  const theirs = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Theirs' }), key: OTHER_KEY })
  assert.equal([mine.status, theirs.status], [201, 201])
  assert.is((mine.body as { id: number }).id, 6)
  assert.is((theirs.body as { id: number }).id, 6)
})

Sandboxes('Nothing created with one key is visible with another: not in a list, a Link page nor a getPet', async ({ api }) => {
  for (let index = 0; index < 3; index += 1) await api.request('POST', '/v1/pets', { body: aNewPet({ name: `Mine ${index}` }) })
  assert.equal(idsOf((await api.request('GET', '/v1/pets', { key: OTHER_KEY })).body), SEEDED_IDS)
  assertError(await api.request('GET', '/v1/pets/6', { key: OTHER_KEY }), 404, 'not_found')
  assert.is((await api.request('GET', '/v1/pets/6')).status, 200)
  const myFirstPage = await api.request('GET', '/v1/pets?limit=5')
  const theirNextPage = await api.request('GET', nextLinkOf(myFirstPage.headers.get('link')), { key: OTHER_KEY })
  assert.is(theirNextPage.status, 200)
  assert.equal(theirNextPage.body, [])
  assert.equal(idsOf((await api.request('GET', nextLinkOf(myFirstPage.headers.get('link')))).body), [6, 7, 8])
})

Sandboxes('An Idempotency-Key never replays across keys', async ({ api }) => {
  const headers = { 'idempotency-key': 'same-key-for-both' }
  const mine = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Mine' }), headers })
  const theirs = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Theirs' }), headers, key: OTHER_KEY })
  assert.equal([mine.status, theirs.status], [201, 201])
  assert.is((theirs.body as { name: string }).name, 'Theirs')
})

Sandboxes(
  "When the reset is posted, then 204 and the caller's sandbox is back to its seed: ids start again, idempotency records are gone",
  async ({ api }) => {
    const headers = { 'idempotency-key': 'before-reset' }
    await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Before' }), headers })
    const reset = await api.request('POST', '/v1/sandbox/reset')
    assert.is(reset.status, 204)
    assert.is(reset.text, '')
    assert.equal(idsOf((await api.request('GET', '/v1/pets')).body), SEEDED_IDS)
    const after = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'After' }), headers })
    assert.is(after.status, 201)
    assert.equal(after.body, aPet({ id: 6, name: 'After', status: 'available' }))
  },
)

Sandboxes(
  'When the reset is posted with a body, then the body is ignored, as the contract declares: any type, optional',
  async ({ api }) => {
    type Operation = { requestBody?: { required?: boolean; content?: Record<string, unknown> } }
    const declared = (api.contract as { paths: Record<string, { post: Operation }> }).paths['/sandbox/reset']?.post.requestBody
    assert.is(declared?.required, false)
    assert.equal(Object.keys(declared?.content ?? {}), ['*/*'])
    const bodies: ReadonlyArray<{ readonly body: unknown; readonly headers?: Record<string, string> }> = [
      { body: aNewPet() },
      { body: '{not json', headers: { 'content-type': 'application/json' } },
      { body: 'reset, please', headers: { 'content-type': 'text/plain' } },
      { body: new Uint8Array([0xff, 0x00, 0x1f]), headers: { 'content-type': 'application/octet-stream', 'content-encoding': 'zstd' } },
    ]
    for (const { body, headers } of bodies) {
      await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Before' }) })
      const reset = await api.request('POST', '/v1/sandbox/reset', { body, ...(headers === undefined ? {} : { headers }) })
      assert.is(reset.status, 204, JSON.stringify(headers))
      assert.equal(idsOf((await api.request('GET', '/v1/pets')).body), SEEDED_IDS)
    }
  },
)

Sandboxes("When one key resets, then every other key's sandbox is untouched", async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Theirs' }), key: OTHER_KEY })
  assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
  assert.equal(idsOf((await api.request('GET', '/v1/pets', { key: OTHER_KEY })).body), [...SEEDED_IDS, 6])
})

Sandboxes('When the reset is posted without a valid key, then 401 and nothing is reset', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  assertError(await api.request('POST', '/v1/sandbox/reset', { key: false }), 401, 'unauthorized')
  assertError(await api.request('POST', '/v1/sandbox/reset', { key: 'wrong-key-0123456789' }), 401, 'unauthorized')
  assert.equal(idsOf((await api.request('GET', '/v1/pets')).body), [...SEEDED_IDS, 6])
})

Sandboxes('When the reset path is asked with another method, then 405 with Allow: POST', async ({ api }) => {
  const response = await api.request('GET', '/v1/sandbox/reset')
  assertError(response, 405, 'method_not_allowed')
  assert.is(response.headers.get('allow'), 'POST')
})

Sandboxes.run()

const gated = gatedInserts(SEED)
const InFlight = apiSuite('Per-key sandboxes, a create in flight across a reset', { sandboxes: gated.space })

InFlight(
  'When a create is in flight across a reset, then it leaves neither a pet nor an idempotency record in the reset sandbox',
  async ({ api }) => {
    const headers = { 'idempotency-key': 'in-flight' }
    const creating = api.request('POST', '/v1/pets', { body: aNewPet({ name: 'In flight' }), headers })
    // Should the test fail before awaiting it, closing the server must not crash the whole run.
    creating.catch(() => undefined)
    await gated.atGate
    assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
    gated.open()
    assert.is((await creating).status, 201)
    assert.equal(idsOf((await api.request('GET', '/v1/pets')).body), SEEDED_IDS)
    // A record left behind would answer this different body with 422.
    const retry = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Another body' }), headers })
    assert.is(retry.status, 201)
    assert.is((retry.body as { name: string }).name, 'Another body')
  },
)

InFlight.run()

const Off = apiSuite('PETSTORE_TEST_TARGET=off (the default): no sandboxes')

Off('When sandboxes are off, then the reset path answers like any unknown path', async ({ api }) => {
  assertError(await api.request('POST', '/v1/sandbox/reset'), 404, 'route_not_found')
  assertError(await api.request('POST', '/v1/sandbox/reset', { key: false }), 401, 'unauthorized')
})

Off('When sandboxes are off, then every key shares one collection', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  assert.equal(idsOf((await api.request('GET', '/v1/pets', { key: OTHER_KEY })).body), [1])
})

Off.run()
