import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import type { PetStatus } from '../../src/domain/pet.js'
import { aNewPet, aPet } from '../support/pet-builder.js'
import { petRepositoryContract } from '../ports/pet-repository.contract.js'

petRepositoryContract('memory', async () => {
  const repository = memoryPetRepository()
  // One process holds one memory store: another "instance" in the same process shares it.
  return { repository, sibling: async () => repository, dispose: async () => undefined }
})

// The store keeps its pets in chunks of 4,096 (adapters/memory/column.ts): 10,000 pets span three.
test('every one of 10,000 pets is found and listed in order, each once, also by status', async () => {
  const statuses: ReadonlyArray<PetStatus> = ['available', 'pending', 'sold']
  const statusOf = (id: number): PetStatus => statuses[id % 3] ?? 'available'
  const seed = Array.from({ length: 10_000 }, (_, index) =>
    aNewPet({ name: `pet ${index + 1}`, categoryId: index + 1, status: statusOf(index + 1) }),
  )
  const repository = memoryPetRepository(seed)
  const created = await repository.insert(aNewPet({ name: 'pet 10001', categoryId: 10_001, status: statusOf(10_001) }))()
  assert.equal(created, E.right(aPet({ id: 10_001, name: 'pet 10001', categoryId: 10_001, status: statusOf(10_001) })))

  const listed = async (status?: PetStatus): Promise<ReadonlyArray<number>> => {
    const ids: number[] = []
    for (;;) {
      const page = await repository.list({ limit: 100, after: ids.at(-1) ?? 0, ...(status === undefined ? {} : { status }) })()
      if (E.isLeft(page)) throw new Error('the store failed')
      if (page.right.length === 0) return ids
      for (const pet of page.right) {
        assert.equal(pet, aPet({ id: pet.id, name: `pet ${pet.id}`, categoryId: pet.id, status: statusOf(pet.id) }))
        ids.push(pet.id)
      }
    }
  }
  const all = Array.from({ length: 10_001 }, (_, index) => index + 1)
  assert.equal(await listed(), all)
  assert.equal(
    await listed('sold'),
    all.filter((id) => statusOf(id) === 'sold'),
  )
  for (const id of [1, 4_096, 4_097, 8_192, 8_193, 10_001]) {
    assert.equal(await repository.findById(id)(), E.right(O.some(aPet({ id, name: `pet ${id}`, categoryId: id, status: statusOf(id) }))))
  }
  assert.equal(await repository.findById(10_002)(), E.right(O.none))
})

test.run()
