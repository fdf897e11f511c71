import type { Pet } from '../../src/domain/pet.js'

/**
 * The JSON of a pet the store hands out frozen (the memory store's), written once: a frozen pet
 * (only primitive fields) can never change, so its text cannot either. A pet that is not frozen (read
 * from MongoDB, new on every read) is written each time. Serializing a page was a tenth of a list.
 */
const written = new WeakMap<Pet, string>()

export const petJson = (pet: Pet): string => {
  if (!Object.isFrozen(pet)) return JSON.stringify(pet)
  const known = written.get(pet)
  if (known !== undefined) return known
  const json = JSON.stringify(pet)
  written.set(pet, json)
  return json
}

/** A page as a JSON array, exactly as JSON.stringify writes it. */
export const petsJson = (pets: ReadonlyArray<Pet>): string => `[${pets.map(petJson).join(',')}]`
