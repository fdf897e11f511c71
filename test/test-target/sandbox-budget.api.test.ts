import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { DEFAULT_SANDBOX_BUDGET, type SandboxBudget } from '../../src/store/sandbox-budget.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { SEED } from '../support/sandbox-spaces.js'
import type { RunningApi } from '../support/start-api.js'

/** A budget small enough to fill in a few requests: its parts as a test names them, the rest as the service has them. */
const SMALL: SandboxBudget = { ...DEFAULT_SANDBOX_BUDGET, journalBytes: 128 * 1024, storeBytes: 4096, scriptBytes: 2048 }

const Budget = apiSuite('A sandbox holds at most its budget', () => ({
  sandboxes: memoryStore(SEED, {}, SMALL.storeBytes).dataSets,
  budget: SMALL,
}))

interface Entry {
  readonly sequence: number
  readonly request: { readonly headers: Readonly<Record<string, string>>; readonly headersTruncated: boolean }
}

const journalOf = async (api: RunningApi): Promise<ReadonlyArray<Entry>> => {
  const response = await api.request('GET', '/v1/sandbox/requests?limit=100')
  assert.is(response.status, 200, response.text)
  return response.body as ReadonlyArray<Entry>
}

const droppedOf = async (api: RunningApi): Promise<number> =>
  ((await api.request('GET', '/v1/sandbox/report')).body as { journal: { dropped: number } }).journal.dropped

/** `count` header lines of `length` characters each, named x-pad-1, x-pad-2... */
const padding = (count: number, length: number): ReadonlyArray<readonly [string, string]> =>
  Array.from({ length: count }, (_, index) => [`x-pad-${index + 1}`, 'p'.repeat(length)] as const)

Budget('A journal entry keeps the first 64 header fields, each whole, and says that it left the rest out', async ({ api }) => {
  assert.is((await api.request('GET', '/v1/pets', { headerLines: padding(100, 8) })).status, 200)
  const [entry] = await journalOf(api)
  const names = Object.keys(entry?.request.headers ?? {})
  assert.is(names.length, 64)
  assert.is(entry?.request.headersTruncated, true)
  // The credential's form comes first, then the fields in the order they came, each whole.
  assert.is(entry?.request.headers.authorization, 'Bearer [redacted]')
  assert.is(entry?.request.headers['x-pad-1'], 'pppppppp')
  assert.not.ok(names.includes('x-pad-100'))
})

Budget('A journal entry keeps at most 8192 characters of header names and values', async ({ api }) => {
  assert.is((await api.request('GET', '/v1/pets', { headerLines: padding(10, 1000) })).status, 200)
  const [entry] = await journalOf(api)
  const headers = Object.entries(entry?.request.headers ?? {})
  assert.ok(headers.reduce((chars, [name, value]) => chars + name.length + value.length, 0) <= 8192)
  assert.ok(headers.length < 12, `${headers.length} fields kept`)
  assert.is(entry?.request.headersTruncated, true)
  // A request whose headers fit keeps them all, and says so.
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assert.is((await journalOf(api))[0]?.request.headersTruncated, false)
})

Budget('A full journal lets its oldest entries go to make room, whatever its count, and the report counts them', async ({ api }) => {
  const sent = 10
  for (let request = 0; request < sent; request += 1) {
    assert.is((await api.request('GET', '/v1/pets', { headerLines: padding(40, 140) })).status, 200)
  }
  const kept = await journalOf(api)
  assert.ok(kept.length >= 1 && kept.length < sent, `${kept.length} of ${sent} kept`)
  // The newest, in order.
  assert.equal(
    kept.map((entry) => entry.sequence),
    Array.from({ length: kept.length }, (_, index) => sent - index),
  )
  assert.is(await droppedOf(api), sent - kept.length)
})

Budget(
  'A create that the sandbox’s pets and records have no room for is refused 507 sandbox_full, and nothing it held is lost',
  async ({ api }) => {
    const keyed = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Kept' }), headers: { 'idempotency-key': 'first' } })
    assert.is(keyed.status, 201)
    let created = 1
    let refused = await api.request('POST', '/v1/pets', { body: aNewPet() })
    while (refused.status === 201 && created < 1000) {
      created += 1
      refused = await api.request('POST', '/v1/pets', { body: aNewPet() })
    }
    assert.ok(created > 10, `${created} pets fit in ${SMALL.storeBytes} bytes`)
    assert.match(assertError(refused, 507, 'sandbox_full'), /reset it/)
    assertError(await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { 'idempotency-key': 'second' } }), 507, 'sandbox_full')
    // Every pet answered 201 is there, and a retry of a stored create still answers its pet.
    const listed = await api.request('GET', '/v1/pets?limit=100')
    assert.is((listed.body as ReadonlyArray<unknown>).length, SEED.length + created)
    const retried = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Kept' }), headers: { 'idempotency-key': 'first' } })
    assert.equal([retried.status, retried.body], [201, keyed.body])
    // A reset frees it all.
    assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
    assert.is((await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { 'idempotency-key': 'second' } })).status, 201)
  },
)

Budget('A fault script bigger than a sandbox keeps for one is refused 400, and the script in place stays', async ({ api }) => {
  const rule = { operation: 'listPets', fault: '503', times: 1 }
  assert.is((await api.request('PUT', '/v1/sandbox/faults', { body: [rule] })).status, 200)
  const big = Array.from({ length: 20 }, () => ({ ...rule, when: { headers: { 'x-test': 'a'.repeat(40) } } }))
  const message = assertError(await api.request('PUT', '/v1/sandbox/faults', { body: big }), 400, 'invalid_body')
  assert.match(message, /^invalid fault script: it takes \d+ bytes of the sandbox's memory, more than the 2048 a script may/)
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [rule])
})

const Default = apiSuite('A sandbox holds at most the default budget', () => ({ sandboxes: memoryStore().dataSets }))

Default('The script of 100 rules matching on 300 empty objects each, 2 MB in memory, is refused', async ({ api }) => {
  const rules = Array.from({ length: 100 }, () => ({
    operation: 'createPet',
    when: { body: { tags: Array.from({ length: 300 }, () => ({})) } },
    fault: '503',
    times: 1,
  }))
  assertError(await api.request('PUT', '/v1/sandbox/faults', { body: rules }), 400, 'invalid_body')
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
})

Default('A journal read is a page of at most 262144 bytes of JSON, whose Link walks the rest, each entry once', async ({ api }) => {
  // Each body, 4 KiB of a character JSON writes in 6 bytes, takes 24 KiB of an entry's JSON.
  const sent = 40
  for (let request = 0; request < sent; request += 1) {
    const body = '\u0001'.repeat(4096)
    assertError(await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json' } }), 400, 'invalid_json')
  }
  const kept = await api.request('GET', '/v1/sandbox/requests/count')
  const walked: number[] = []
  let pages = 0
  for (let next: string | undefined = '/v1/sandbox/requests?limit=100'; next !== undefined; pages += 1) {
    const page = await api.request('GET', next)
    assert.is(page.status, 200)
    assert.ok(Buffer.byteLength(page.text) <= 262144, `a page of ${Buffer.byteLength(page.text)} bytes`)
    walked.push(...(page.body as ReadonlyArray<Entry>).map((entry) => entry.sequence))
    next = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1]
  }
  assert.ok(pages > 1, `${pages} page`)
  const count = (kept.body as { count: number }).count
  assert.equal(
    walked,
    Array.from({ length: count }, (_, index) => sent - index),
  )
})

Budget.run()
Default.run()
