import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import type * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Pet, PetDraft, PetStatus } from '../../src/domain/pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { aNewPet, aPet } from '../support/pet-builder.js'

/** One empty store for one test: its repository, more repositories on the same store, and cleanup. */
export interface StoreFixture {
  readonly repository: PetRepository
  /** Another repository over the same store, as another service instance would open it. */
  readonly sibling: () => Promise<PetRepository>
  readonly dispose: () => Promise<void>
}

interface Context {
  store?: StoreFixture
}

const run = async <A>(task: TE.TaskEither<unknown, A>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`the store failed: ${JSON.stringify(result.left)}`)
  return result.right
}

const STATUSES: ReadonlyArray<PetStatus> = ['available', 'pending', 'sold']
const draft = (index: number, status: PetStatus = STATUSES[index % 3] ?? 'available'): PetDraft =>
  aNewPet({ name: `pet ${index}`, categoryId: index, status })

/**
 * The PetRepository contract (src/domain/pet-repository.ts), run once per adapter. Every adapter
 * passes every test; there is no skip list.
 */
export const petRepositoryContract = (adapterName: string, openStore: () => Promise<StoreFixture>): void => {
  const contract = suite<Context>(`PetRepository contract: ${adapterName}`, {})

  contract.before.each(async (context) => {
    context.store = await openStore()
  })
  contract.after.each(async (context) => {
    await context.store?.dispose()
    delete context.store
  })

  const storeOf = (context: Context): StoreFixture => {
    if (context.store === undefined) throw new Error('no store opened')
    return context.store
  }

  contract('insert assigns a positive id and returns every field as given', async (context) => {
    const { repository } = storeOf(context)
    const pet = await run(repository.insert(aNewPet({ name: 'Zoë 🐈', categoryId: -7, status: 'pending' })))
    assert.ok(Number.isSafeInteger(pet.id) && pet.id > 0)
    assert.equal(pet, aPet({ id: pet.id, name: 'Zoë 🐈', categoryId: -7, status: 'pending' }))
  })

  contract('findById round-trips every field of a stored pet', async (context) => {
    const { repository } = storeOf(context)
    const name = ' e\u0301 \u00e9 ' + 'x'.repeat(150)
    const pet = await run(repository.insert(aNewPet({ name, categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' })))
    assert.equal(
      await run(repository.findById(pet.id)),
      O.some(aPet({ id: pet.id, name, categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' })),
    )
  })

  contract('a task does its work each time it is run, and none when it is made', async (context) => {
    const { repository } = storeOf(context)
    const listing = repository.list({ limit: 10 })
    const insert = repository.insert(draft(1))
    assert.equal(await run(listing), [])
    const first = await run(insert)
    const second = await run(insert)
    assert.equal(
      (await run(listing)).map((pet) => pet.id),
      [first.id, second.id],
    )
  })

  contract('findById answers None for an id no pet has', async (context) => {
    const { repository } = storeOf(context)
    await run(repository.insert(draft(1)))
    assert.equal(await run(repository.findById(987654)), O.none)
  })

  contract('assigns distinct ids to equal pets', async (context) => {
    const { repository } = storeOf(context)
    const first = await run(repository.insert(draft(1)))
    const second = await run(repository.insert(draft(1)))
    assert.is.not(first.id, second.id)
  })

  contract('stores at most one pet under a create id, and answers it to a second insert under that id', async (context) => {
    const { repository } = storeOf(context)
    const first = await run(repository.insert(draft(1), 'create-1'))
    assert.equal(await run(repository.insert(draft(2), 'create-1')), first)
    const other = await run(repository.insert(draft(1), 'create-2'))
    assert.is.not(other.id, first.id)
    assert.equal(
      (await run(repository.list({ limit: 10 }))).map((pet) => pet.id),
      [first.id, other.id],
    )
  })

  contract('assigns distinct ids under concurrent creates from several repositories on one store', async (context) => {
    const store = storeOf(context)
    const repositories = [store.repository, await store.sibling(), await store.sibling()]
    const created = await Promise.all(
      Array.from({ length: 60 }, (_, index) => run((repositories[index % 3] ?? store.repository).insert(draft(index)))),
    )
    assert.is(new Set(created.map((pet) => pet.id)).size, 60)
    const listed = await run(store.repository.list({ limit: 100 }))
    assert.is(listed.length, 60)
  })

  contract('lists in ascending id order', async (context) => {
    const { repository } = storeOf(context)
    for (let index = 0; index < 12; index += 1) await run(repository.insert(draft(index)))
    const ids = (await run(repository.list({ limit: 100 }))).map((pet) => pet.id)
    assert.equal(
      ids,
      [...ids].sort((a, b) => a - b),
    )
    assert.is(ids.length, 12)
  })

  contract('lists at most limit pets', async (context) => {
    const { repository } = storeOf(context)
    for (let index = 0; index < 7; index += 1) await run(repository.insert(draft(index)))
    assert.is((await run(repository.list({ limit: 5 }))).length, 5)
    assert.is((await run(repository.list({ limit: 1 }))).length, 1)
  })

  contract('lists only pets of the given status', async (context) => {
    const { repository } = storeOf(context)
    for (let index = 0; index < 9; index += 1) await run(repository.insert(draft(index)))
    for (const status of STATUSES) {
      const pets = await run(repository.list({ limit: 100, status }))
      assert.is(pets.length, 3, status)
      assert.ok(
        pets.every((pet) => pet.status === status),
        status,
      )
    }
  })

  contract('lists only pets with an id above after, also with a status', async (context) => {
    const { repository } = storeOf(context)
    const all: Pet[] = []
    for (let index = 0; index < 9; index += 1) all.push(await run(repository.insert(draft(index))))
    const pivot = all[3]?.id ?? 0
    const after = await run(repository.list({ limit: 100, after: pivot }))
    assert.equal(
      after.map((pet) => pet.id),
      all.slice(4).map((pet) => pet.id),
    )
    const afterSold = await run(repository.list({ limit: 100, after: pivot, status: 'sold' }))
    assert.equal(
      afterSold.map((pet) => pet.id),
      all.filter((pet, index) => index > 3 && pet.status === 'sold').map((pet) => pet.id),
    )
  })

  contract('lists nothing from an empty store or past the last pet', async (context) => {
    const { repository } = storeOf(context)
    assert.equal(await run(repository.list({ limit: 20 })), [])
    const pet = await run(repository.insert(draft(1)))
    assert.equal(await run(repository.list({ limit: 20, after: pet.id })), [])
  })

  contract.run()
}
