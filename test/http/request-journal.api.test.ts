import { request as httpRequest } from 'node:http'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { JournalEntry } from '../../adapters/http/request-journal.js'
import { perKeySandboxes } from '../../src/main/sandboxes.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { OTHER_KEY, type RunningApi, TEST_KEY } from '../support/start-api.js'
import { oneWindowCounter } from '../support/one-window-counter.js'

const journalOf = async (api: RunningApi, query = '', key: string = TEST_KEY): Promise<ReadonlyArray<JournalEntry>> => {
  const response = await api.request('GET', `/v1/sandbox/requests${query}`, { key })
  assert.is(response.status, 200, response.text)
  return response.body as ReadonlyArray<JournalEntry>
}

const Journal = apiSuite('The request journal: PETSTORE_SANDBOXES=per-key', () => ({
  sandboxes: perKeySandboxes(memoryStore().sandboxes),
  faults: true,
}))

Journal('keeps what the client sent and what it was answered, newest first, never the key', async ({ api }) => {
  const created = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex' }), headers: { 'x-request-id': 'req-created-1' } })
  await api.request('GET', '/v1/pets/1?fields=all')
  const [get, create] = await journalOf(api)
  assert.is(create?.id, 'req-created-1')
  assert.is(create?.method, 'POST')
  assert.is(create?.path, '/v1/pets')
  assert.is(create?.status, 201)
  assert.is(create?.fault, null)
  assert.ok(typeof create?.durationMs === 'number' && create.durationMs >= 0)
  assert.ok(!Number.isNaN(Date.parse(create?.time ?? '')) && (create?.time ?? '').endsWith('Z'))
  assert.is(create?.request.headers.authorization, 'Bearer [redacted]')
  assert.is(create?.request.headers['content-type'], 'application/json')
  assert.equal(JSON.parse(create?.request.body ?? 'null'), aNewPet({ name: 'Rex' }))
  assert.is(create?.response.body, created.text)
  assert.is(create?.response.headers.location, '/v1/pets/1')
  assert.is(get?.path, '/v1/pets/1?fields=all')
  assert.is(get?.request.body, null)
  assert.not.match(JSON.stringify(await journalOf(api)), TEST_KEY)
})

Journal('records the fault applied, and no status or answer when the connection was reset', async ({ api }) => {
  await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=503' } })
  await new Promise<void>((resolve) => {
    const request = httpRequest(`${api.baseUrl}/v1/pets`, { headers: { authorization: `Bearer ${TEST_KEY}`, prefer: 'fault=reset' } })
    request.on('error', () => resolve())
    request.on('response', () => resolve())
    request.end()
  })
  // The reset request is recorded as its connection closes, which the service sees (in the turn of
  // the reset) before the client reads the reset, and so before the journal is asked for.
  const [reset, unavailable] = await journalOf(api)
  assert.equal([reset?.status, reset?.fault, reset?.response], [null, 'reset', { headers: {}, body: null }])
  assert.equal([unavailable?.status, unavailable?.fault], [503, '503'])
})

Journal('keeps the last 100 requests; limit is 1 to 100, 20 by default; /v1/sandbox/ requests are not kept', async ({ api }) => {
  for (let index = 0; index < 105; index += 1) await api.request('GET', `/v1/pets?limit=${(index % 100) + 1}`)
  await api.request('GET', '/v1/sandbox/faults')
  assert.is((await journalOf(api)).length, 20)
  const all = await journalOf(api, '?limit=100')
  assert.is(all.length, 100)
  assert.is(all[0]?.path, '/v1/pets?limit=5')
  assert.is((await journalOf(api, '?limit=1'))[0]?.path, '/v1/pets?limit=5')
  for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?limit=1&limit=2', '?since=1']) {
    assertError(await api.request('GET', `/v1/sandbox/requests${query}`), 400, 'invalid_parameter')
  }
})

Journal('two keys never see each other’s journal; DELETE and a reset clear one', async ({ api }) => {
  await api.request('GET', '/v1/pets')
  assert.equal(await journalOf(api, '', OTHER_KEY), [])
  await api.request('GET', '/v1/pets', { key: OTHER_KEY })
  assert.is((await api.request('DELETE', '/v1/sandbox/requests')).status, 204)
  assert.equal(await journalOf(api), [])
  assert.is((await journalOf(api, '', OTHER_KEY)).length, 1)
  await api.request('GET', '/v1/pets', { key: OTHER_KEY })
  assert.is((await api.request('POST', '/v1/sandbox/reset', { key: OTHER_KEY })).status, 204)
  assert.equal(await journalOf(api, '', OTHER_KEY), [])
})

Journal('a body is kept as text, at most 4 KiB of it', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: { ...aNewPet(), note: 'x'.repeat(10_000) } })
  const [entry] = await journalOf(api)
  assert.is(Buffer.byteLength(entry?.request.body ?? ''), 4096)
})

Journal.run()

/** Sandboxes whose listing fails with an exception, as a bug would: the edge answers 500. */
const buggySandboxes = () => {
  const space = memoryStore().sandboxes
  if (space === undefined) throw new Error('the memory store has sandboxes')
  return perKeySandboxes({
    ...space,
    open: (sandbox) =>
      pipe(
        space.open(sandbox),
        TE.map((ports) => ({
          ...ports,
          pets: {
            ...ports.pets,
            list: () => () => Promise.reject(new Error('a bug')),
          },
        })),
      ),
  })
}

const Failing = apiSuite('The request journal when the service fails unexpectedly', () => ({ sandboxes: buggySandboxes() }))

Failing('an unexpected failure is kept as the 500 that was sent', async ({ api }) => {
  assertError(await api.request('GET', '/v1/pets'), 500, 'internal_error')
  const [entry] = await journalOf(api)
  assert.is(entry?.status, 500)
  assert.match(entry?.response.body ?? '', '"code":"internal_error"')
})

Failing.run()

const Limited = apiSuite('The request journal with a rate limit of 2 a minute', () => ({
  sandboxes: perKeySandboxes(memoryStore().sandboxes),
  rateLimit: { limit: 2, counter: oneWindowCounter() },
}))

Limited('reading the journal is never counted: an open inspector spends none of the key’s quota', async ({ api }) => {
  for (let index = 0; index < 5; index += 1) await journalOf(api)
  assert.equal([(await api.request('GET', '/v1/pets')).status, (await api.request('GET', '/v1/pets')).status], [200, 200])
  assertError(await api.request('GET', '/v1/pets'), 429, 'rate_limited')
  assert.is((await journalOf(api)).length, 3)
})

Limited.run()

const NoFaults = apiSuite('With sandboxes and without faults', () => ({ sandboxes: perKeySandboxes(memoryStore().sandboxes) }))

NoFaults('the journal is kept, and the fault script routes answer 404 like any unknown path', async ({ api }) => {
  await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=503' } })
  assert.equal(
    (await journalOf(api)).map((entry) => [entry.status, entry.fault]),
    [[200, null]],
  )
  for (const method of ['PUT', 'GET', 'DELETE']) {
    assertError(await api.request(method, '/v1/sandbox/faults', method === 'PUT' ? { body: [] } : {}), 404, 'route_not_found')
  }
})

NoFaults.run()

const Off = apiSuite('Without sandboxes')

Off('the journal routes and the inspector page answer 404 like any unknown path', async ({ api }) => {
  assertError(await api.request('GET', '/v1/sandbox/requests'), 404, 'route_not_found')
  assertError(await api.request('DELETE', '/v1/sandbox/requests'), 404, 'route_not_found')
  assertError(await api.request('GET', '/sandbox', { key: false }), 404, 'route_not_found')
})

Off.run()
