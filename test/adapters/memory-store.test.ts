import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { quotaScope } from '../../src/store/rate-limit-counter.js'
import { idempotencyStoreContract } from '../ports/idempotency-store.contract.js'
import { petRepositoryContract } from '../ports/pet-repository.contract.js'
import { dataSetsContract } from '../ports/data-sets.contract.js'
import { aNewPet, aPet } from '../support/pet-builder.js'

// One process holds one memory store: another "instance" in the same process shares it.
dataSetsContract('memory', async (seed) => {
  const { dataSets } = memoryStore(seed)
  return { space: dataSets, sibling: async () => dataSets, dispose: async () => undefined }
})

/** The ports of one sandbox of a fresh memory store, which must keep the port contracts too. */
const sandboxPorts = async (times = {}) => {
  const opened = await memoryStore([], times).dataSets.open('aaaa0001')()
  if (E.isLeft(opened)) throw new Error('the memory store failed')
  return opened.right
}

petRepositoryContract('memory sandbox', async () => {
  const { pets } = await sandboxPorts()
  return { repository: pets, sibling: async () => pets, dispose: async () => undefined }
})

idempotencyStoreContract('memory sandbox', async (times) => {
  const { idempotency } = await sandboxPorts(times)
  return { store: idempotency, sibling: async () => idempotency, dispose: async () => undefined }
})

const Store = suite('memoryStore')

Store('counts rate limits per instance: a store of its own, a count of its own', async () => {
  const [one, other] = [memoryStore(), memoryStore()]
  const countOf = async (store: ReturnType<typeof memoryStore>): Promise<number> => {
    const hit = await store.rateLimits.hit('client', 60_000)()
    return E.isRight(hit) ? hit.right.count : 0
  }
  assert.equal([await countOf(one), await countOf(one), await countOf(other)], [1, 2, 1])
})

Store("counts a sandbox's rate limits on its clock: advanced past the window, only its count starts again", async () => {
  // A clock that stands still 10 s into a window: only an advance moves it.
  const store = memoryStore([], { clock: { now: () => 10_000 } })
  const countOf = async (scope: string): Promise<number> => {
    const hit = await store.rateLimits.hit(scope, 60_000)()
    return E.isRight(hit) ? hit.right.count : 0
  }
  for (const scope of ['aaaa0001', 'bbbb0002', 'not a sandbox']) await countOf(scope)
  await store.dataSets.advance('aaaa0001', 60_000)()
  assert.equal([await countOf('aaaa0001'), await countOf('bbbb0002'), await countOf('not a sandbox')], [1, 2, 2])
})

Store('holds a sandbox from its first opening (or advance) until it is dropped', async () => {
  const { dataSets: sandboxes } = memoryStore()
  await sandboxes.open('aaaa0001')()
  await sandboxes.open('bbbb0002')()
  await sandboxes.reset('cccc0003')()
  await sandboxes.advance('dddd0004', 1000)()
  assert.is(sandboxes.size(), 4)
  for (const sandbox of ['aaaa0001', 'bbbb0002', 'cccc0003', 'dddd0004']) await sandboxes.drop(sandbox)()
  assert.is(sandboxes.size(), 0)
})

Store('a dropped sandbox takes its rate-limit counts with it, in every quota, however far its clock was moved', async () => {
  const store = memoryStore()
  for (const sandbox of ['aaaa0001', 'bbbb0002']) {
    await store.dataSets.open(sandbox)()
    // An hour ahead: its window ends an hour from now in real time, when a sweep would find it ended.
    await store.dataSets.advance(sandbox, 3_600_000)()
    for (const scope of [sandbox, quotaScope(sandbox, 'sandbox')]) await store.rateLimits.hit(scope, 60_000)()
  }
  await store.rateLimits.hit('not a sandbox', 60_000)()
  assert.is(store.rateLimits.size(), 5)
  for (const sandbox of ['aaaa0001', 'bbbb0002']) await store.dataSets.drop(sandbox)()
  assert.is(store.rateLimits.size(), 1)
})

Store('is always ready, and seeds its shared data set with ids 1..n', async () => {
  const store = memoryStore([aNewPet({ name: 'Rex', status: 'sold' })])
  assert.equal(await store.ready()(), E.right(undefined))
  assert.equal(await store.seed()(), E.right({ kind: 'seeded', count: 1 }))
  assert.equal(await store.shared.pets.list({ limit: 5 })(), E.right([aPet({ id: 1, name: 'Rex', status: 'sold' })]))
})

Store.run()
