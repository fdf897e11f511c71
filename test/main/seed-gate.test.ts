import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { seedGate } from '../../src/store/seed-gate.js'
import { aNewPet } from '../support/pet-builder.js'

const Gate = suite('The seed gate: readiness and creates wait for the seed to settle')

const DRAFT = aNewPet()

Gate('Until the seed has settled, the store is not ready and a create is 503 and stores nothing; after, both go through', async () => {
  const opened = memoryStore()
  const { store, open } = seedGate(opened)
  const ready = await store.ready()()
  const created = await store.shared.pets.insert(DRAFT)()
  assert.equal(ready, E.left({ _tag: 'StoreUnavailable', detail: 'the seed is not applied yet; retrying' }))
  assert.equal(created, ready)
  assert.equal(await opened.shared.pets.list({ limit: 5 })(), E.right([]))
  // Reads go through at once: they cannot make the store look seeded.
  assert.equal(await store.shared.pets.list({ limit: 5 })(), E.right([]))
  open()
  assert.equal(await store.ready()(), E.right(undefined))
  assert.ok(E.isRight(await store.shared.pets.insert(DRAFT)()))
})

Gate('Until the seed has settled, a create with an Idempotency-Key claims nothing: its key stays free for another body', async () => {
  const opened = memoryStore()
  const { store } = seedGate(opened)
  const refused = await store.shared.idempotency.claim('client:key', 'first body')()
  assert.equal(refused, E.left({ _tag: 'StoreUnavailable', detail: 'the seed is not applied yet; retrying' }))
  const claimed = await opened.shared.idempotency.claim('client:key', 'another body')()
  assert.ok(E.isRight(claimed) && claimed.right.kind === 'claimed', JSON.stringify(claimed))
})

Gate('A create through the gate keeps its create id: a second insert under it answers the first pet', async () => {
  const { store, open } = seedGate(memoryStore())
  open()
  const first = await store.shared.pets.insert(DRAFT, 'create-1')()
  assert.ok(E.isRight(first))
  assert.equal(await store.shared.pets.insert({ ...DRAFT, name: 'Other' }, 'create-1')(), first)
})

Gate.run()
