import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { createPet } from '../../src/domain/create-pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { aNewPet, aPet } from '../support/pet-builder.js'
import { spiedIdempotency } from '../support/spied-idempotency.js'

/** createPet over `pets`, with an idempotency store of its own. */
const createPetIn = (pets: PetRepository) => createPet({ pets, idempotency: memoryIdempotencyStore() })

const CreatePet = suite('createPet')

CreatePet('stores a valid pet and returns it with a service-assigned id', async () => {
  const pets = memoryPetRepository()
  const created = await createPetIn(pets)(aNewPet({ name: 'Tom', categoryId: 3, status: 'pending' }))()
  assert.equal(created, E.right(aPet({ id: 1, name: 'Tom', categoryId: 3, status: 'pending' })))
  assert.equal(await pets.findById(1)(), E.right(O.some(aPet({ id: 1, name: 'Tom', categoryId: 3, status: 'pending' }))))
})

CreatePet('ignores a client-sent id', async () => {
  const created = await createPetIn(memoryPetRepository())(aNewPet({ id: 500 }))()
  assert.equal(E.isRight(created) && created.right.id, 1)
})

CreatePet('rejects an invalid pet with InvalidPet and stores nothing', async () => {
  const pets = memoryPetRepository()
  const result = await createPetIn(pets)(aNewPet({ name: '' }))()
  assert.equal(result, E.left({ _tag: 'InvalidPet', problems: ['name: must not be empty'] }))
  assert.equal(await pets.list({ limit: 10 })(), E.right([]))
})

CreatePet('passes StoreUnavailable through from the repository', async () => {
  const failing = { ...memoryPetRepository(), insert: () => async () => E.left({ _tag: 'StoreUnavailable', detail: 'down' } as const) }
  assert.equal(await createPetIn(failing)(aNewPet())(), E.left({ _tag: 'StoreUnavailable', detail: 'down' }))
})

CreatePet('a create without a key never touches the idempotency store', async () => {
  const spy = spiedIdempotency()
  const created = await createPet({ pets: memoryPetRepository(), idempotency: spy.store })(aNewPet())()
  assert.ok(E.isRight(created), JSON.stringify(created))
  assert.equal(spy.calls, [])
})

CreatePet.run()
