import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { getPet } from '../../src/domain/get-pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { aNewPet, aPet } from '../support/pet-builder.js'

const GetPet = suite('getPet')

const withOnePet = async (): Promise<PetRepository> => {
  const pets = memoryPetRepository()
  await pets.insert(aNewPet({ name: 'Rex', status: 'sold' }))()
  return pets
}

GetPet('returns the pet with the given id', async () => {
  assert.equal(await getPet({ pets: await withOnePet() })('1')(), E.right(aPet({ id: 1, name: 'Rex', status: 'sold' })))
})

GetPet('returns PetNotFound for an id no pet has, including 0, negatives and ids beyond 2^53', async () => {
  const pets = await withOnePet()
  for (const id of ['2', '0', '-1', '9007199254740993', '9223372036854775807', '-9223372036854775808']) {
    assert.equal(await getPet({ pets })(id)(), E.left({ _tag: 'PetNotFound', id }), id)
  }
})

GetPet('never rounds an id beyond 2^53 onto an existing pet', async () => {
  const pets = memoryPetRepository()
  // 2^53 + 1 would round to 2^53 as a double; it must be looked up as itself and not be found.
  assert.equal(await getPet({ pets })('9007199254740993')(), E.left({ _tag: 'PetNotFound', id: '9007199254740993' }))
})

GetPet('rejects a petId that is not an int64 with InvalidParameter', async () => {
  const pets = await withOnePet()
  for (const text of ['abc', '1.5', '0x10', '1e1', '+1', '01', '-0', ' 1', '', '9223372036854775808', '-9223372036854775809']) {
    const result = await getPet({ pets })(text)()
    assert.ok(E.isLeft(result) && result.left._tag === 'InvalidParameter', JSON.stringify(text))
  }
})

GetPet.run()
