import * as assert from 'uvu/assert'
import { memoryRateLimitCounter } from '../../adapters/memory/memory-rate-limit-counter.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { JournalEntry } from '../../adapters/test-target/journal-entry.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { countOf, journalOf } from '../support/journal-reads.js'
import { aNewPet } from '../support/pet-builder.js'
import type { RunningApi } from '../support/start-api.js'

const sequences = (entries: ReadonlyArray<JournalEntry>): number[] => entries.map((entry) => entry.sequence)

/** Six requests of one key: 1 a create, 2 a keyed create, 3 a forced 503 create, 4 a list, 5 a HEAD of a pet, 6 a PUT. */
const sendSix = async (api: RunningApi): Promise<void> => {
  assert.is((await api.request('POST', '/v1/pets', { body: aNewPet() })).status, 201)
  assert.is((await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { 'idempotency-key': 'k-1' } })).status, 201)
  assert.is((await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { prefer: 'fault=503' } })).status, 503)
  assert.is((await api.request('GET', '/v1/pets?limit=5')).status, 200)
  assert.is((await api.request('HEAD', '/v1/pets/1')).status, 200)
  assert.is((await api.request('PUT', '/v1/pets', { body: aNewPet() })).status, 405)
}

const Filters = apiSuite('Filters of the request journal', () => ({ sandboxes: memoryStore().dataSets }))

Filters('each entry names the operation its method and path name, HEAD its GET’s, whatever it was answered', async ({ api }) => {
  await sendSix(api)
  assert.equal(
    (await journalOf(api, '')).map((entry) => [entry.sequence, entry.operation, entry.status]),
    [
      [6, null, 405],
      [5, 'getPet', 200],
      [4, 'listPets', 200],
      [3, 'createPet', 503],
      [2, 'createPet', 201],
      [1, 'createPet', 201],
    ],
  )
})

Filters('filters by method, path, operation, state, status, fault, header and since, each alone and all together', async ({ api }) => {
  await sendSix(api)
  const cases: ReadonlyArray<readonly [string, number[]]> = [
    ['?method=POST', [3, 2, 1]],
    ['?method=HEAD', [5]],
    ['?path=/v1/pets', [6, 4, 3, 2, 1]],
    ['?path=/v1/pets/1', [5]],
    ['?operation=createPet', [3, 2, 1]],
    ['?operation=getPet', [5]],
    ['?state=answered', [6, 5, 4, 3, 2, 1]],
    ['?state=pending', []],
    ['?status=201', [2, 1]],
    ['?fault=503', [3]],
    ['?header=Idempotency-Key', [2]],
    ['?header=idempotency-key:k-1', [2]],
    ['?header=idempotency-key:%20k-1', [2]],
    ['?header=idempotency-key:k-2', []],
    ['?header=prefer&header=content-type:application/json', [3]],
    ['?header=authorization:Bearer%20[redacted]&method=GET', [4]],
    ['?since=4', [6, 5]],
    ['?since=6', []],
    ['?method=POST&path=/v1/pets&operation=createPet&status=201&header=content-type&since=1', [2]],
    ['?operation=createPet&limit=2', [3, 2]],
  ]
  for (const [query, expected] of cases) assert.equal(sequences(await journalOf(api, query)), expected, query)
})

Filters('counts the entries that match the same filters: the server side of verify(exactly(n), ...)', async ({ api }) => {
  await sendSix(api)
  assert.equal((await api.request('GET', '/v1/sandbox/requests/count?method=POST&path=/v1/pets')).body, { count: 3, complete: true })
  assert.is(await countOf(api), 6)
  assert.is(await countOf(api, '?operation=createPet&status=201'), 2)
  assert.is(await countOf(api, '?header=idempotency-key:k-1'), 1)
  assert.is(await countOf(api, '?status=500'), 0)
  assert.is((await api.request('DELETE', '/v1/sandbox/requests')).status, 204)
  assert.is(await countOf(api), 0)
})

Filters('an unknown filter, one given twice and a value outside its rules are refused with 400, each named', async ({ api }) => {
  const refusals: ReadonlyArray<readonly [string, string]> = [
    ['?verb=GET', 'verb: is not a parameter of this operation'],
    ['?method=get', 'method: must be an HTTP method'],
    ['?path=v1/pets', 'path: must be a path starting with /'],
    ['?operation=deletePet', 'operation: must be one of listPets, createPet, getPet'],
    ['?state=done', 'state: must be one of pending, answered, reset, abandoned'],
    ['?status=2xx', 'status: must be an integer from 100 to 599'],
    ['?status=600', 'status: must be an integer from 100 to 599'],
    ['?fault=418', 'fault: must be one of 429, 500, 502, 503, 504, reset, reset-after, truncated'],
    ['?header=', 'header: must be a header name, or name:value'],
    ['?header=bad%20name:x', 'header: must be a header name, or name:value'],
    ['?since=-1', 'since: must be an integer from 0 to 9007199254740991'],
    ['?since=01', 'since: must be an integer from 0 to 9007199254740991'],
    ['?status=200&status=201', 'status: must be given at most once'],
  ]
  for (const path of ['/v1/sandbox/requests', '/v1/sandbox/requests/count']) {
    for (const [query, message] of refusals)
      assert.match(assertError(await api.request('GET', `${path}${query}`), 400, 'invalid_parameter'), message)
  }
  const all = assertError(await api.request('GET', '/v1/sandbox/requests?limit=0&method=x&status=x'), 400, 'invalid_parameter')
  assert.match(all, /^limit: .*; method: .*; status: /)
  const limit = assertError(await api.request('GET', '/v1/sandbox/requests/count?limit=5'), 400, 'invalid_parameter')
  assert.match(limit, 'limit: is not a parameter of this operation')
  const long = assertError(await api.request('GET', `/v1/sandbox/requests?${'x'.repeat(500)}=1`), 400, 'invalid_parameter')
  assert.ok(long.length < 300, long)
})

Filters('a header filter matches by name in any case, never a property every object has', async ({ api }) => {
  await api.request('GET', '/v1/pets', { headers: { 'X-Trace': 'Abc' } })
  assert.is(await countOf(api, '?header=x-TRACE:Abc'), 1)
  assert.is(await countOf(api, '?header=x-trace:abc'), 0)
  for (const name of ['constructor', '__proto__', 'toString']) assert.is(await countOf(api, `?header=${name}`), 0, name)
})

Filters('a header filter with a run of 15,000 spaces in its value is read at once, without the spaces around it', async ({ api }) => {
  await api.request('GET', '/v1/pets', { headers: { 'X-Pad': 'x y' } })
  // `+` is a space in a query. The run inside the value is no part of the sent one; those around it are trimmed.
  assert.is(await countOf(api, `?header=x-pad:x${'+'.repeat(15_000)}y`), 0)
  assert.is(await countOf(api, `?header=x-pad:${'+'.repeat(7_000)}x+y${'+'.repeat(7_000)}`), 1)
})

Filters.run()

const Limited = apiSuite('Counting in the request journal with a rate limit of 1 a minute', () => ({
  sandboxes: memoryStore().dataSets,
  rateLimit: { limit: 1, counter: memoryRateLimitCounter() },
}))

Limited('counting spends none of the key’s quota, like reading the journal (they have a quota of their own)', async ({ api }) => {
  for (let index = 0; index < 3; index += 1) assert.is(await countOf(api), 0)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assertError(await api.request('GET', '/v1/pets'), 429, 'rate_limited')
  assert.is(await countOf(api, '?status=429'), 1)
  assert.is(await countOf(api, '?operation=listPets'), 2)
})

Limited.run()

const Off = apiSuite('Without sandboxes, the count')

Off('the count route answers 404 like any unknown path', async ({ api }) => {
  assertError(await api.request('GET', '/v1/sandbox/requests/count'), 404, 'route_not_found')
})

Off.run()
