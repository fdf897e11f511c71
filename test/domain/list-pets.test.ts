import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { listPets, type PetPage } from '../../src/domain/list-pets.js'
import type { PetStatus } from '../../src/domain/pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'

const STATUSES: ReadonlyArray<PetStatus> = ['available', 'pending', 'sold']

/** n pets whose status cycles available, pending, sold. */
const seeded = async (count: number): Promise<PetRepository> => {
  const pets = memoryPetRepository()
  for (let index = 0; index < count; index += 1) {
    await pets.insert({ name: `pet ${index + 1}`, categoryId: 1, status: STATUSES[index % 3] ?? 'available' })()
  }
  return pets
}

const pageOf = async (pets: PetRepository, request: Parameters<ReturnType<typeof listPets>>[0]): Promise<PetPage> => {
  const result = await listPets({ pets })(request)()
  if (E.isLeft(result)) throw new Error(`unexpected ${result.left._tag}`)
  return result.right
}

const ListPets = suite('listPets')

ListPets('returns at most 20 pets when limit is omitted', async () => {
  const page = await pageOf(await seeded(25), {})
  assert.equal(page.pets.length, 20)
})

ListPets('returns at most limit pets when limit is given', async () => {
  assert.equal((await pageOf(await seeded(10), { limit: '3' })).pets.length, 3)
  assert.equal((await pageOf(await seeded(2), { limit: '100' })).pets.length, 2)
})

ListPets('returns only pets with the given status', async () => {
  const page = await pageOf(await seeded(30), { status: 'pending', limit: '100' })
  assert.equal(page.pets.length, 10)
  assert.ok(page.pets.every((pet) => pet.status === 'pending'))
})

ListPets('returns pets in ascending id order', async () => {
  const ids = (await pageOf(await seeded(10), {})).pets.map((pet) => pet.id)
  assert.equal(ids, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
})

ListPets('gives the position of the last pet when more pets match, and none otherwise', async () => {
  const pets = await seeded(5)
  assert.equal((await pageOf(pets, { limit: '2' })).next, O.some(2))
  assert.equal((await pageOf(pets, { limit: '5' })).next, O.none)
  assert.equal((await pageOf(pets, { limit: '2', after: 4 })).next, O.none)
})

ListPets('continues after the given position', async () => {
  const page = await pageOf(await seeded(9), { status: 'available', after: 1, limit: '2' })
  assert.equal(
    page.pets.map((pet) => pet.id),
    [4, 7],
  )
})

ListPets('rejects a limit outside 1 to 100 or not an integer, naming it', async () => {
  for (const limit of ['0', '101', '-1', 'abc', '', '1.5', '+5', '05', '1e2']) {
    const result = await listPets({ pets: memoryPetRepository() })({ limit })()
    assert.equal(result, E.left({ _tag: 'InvalidParameter', problems: ['limit: must be an integer from 1 to 100'] }), limit)
  }
})

ListPets('rejects an unknown status, naming it, together with a bad limit', async () => {
  const result = await listPets({ pets: memoryPetRepository() })({ status: 'lost', limit: '0' })()
  assert.equal(
    result,
    E.left({
      _tag: 'InvalidParameter',
      problems: ['limit: must be an integer from 1 to 100', 'status: must be one of available, pending, sold'],
    }),
  )
})

ListPets('names what the driver could not read after the values’ problems, in one answer', async () => {
  const unread = ['offset: is not a parameter of this operation (accepted: limit, status, after)']
  assert.equal(
    await listPets({ pets: memoryPetRepository() })({ limit: '0', unread })(),
    E.left({ _tag: 'InvalidParameter', problems: ['limit: must be an integer from 1 to 100', ...unread] }),
  )
  assert.equal(
    await listPets({ pets: memoryPetRepository() })({ limit: '5', unread })(),
    E.left({ _tag: 'InvalidParameter', problems: unread }),
  )
})

ListPets.run()
