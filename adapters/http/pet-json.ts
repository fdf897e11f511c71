import type { Pet } from '../../src/domain/pet.js'
import { etagOf } from './etag.js'

/**
 * The JSON of a pet the store hands out frozen (the memory store's), written once: a frozen pet
 * (only primitive fields) can never change, so its text cannot either. A pet that is not frozen (read
 * from MongoDB, new on every read) is written each time. Serializing a page was a tenth of a list.
 */
const written = new WeakMap<Pet, { readonly json: string; etag?: string }>()

const writtenOf = (pet: Pet): { readonly json: string; etag?: string } => {
  const known = written.get(pet)
  if (known !== undefined) return known
  const made = { json: JSON.stringify(pet) }
  written.set(pet, made)
  return made
}

export const petJson = (pet: Pet): string => (Object.isFrozen(pet) ? writtenOf(pet).json : JSON.stringify(pet))

/** The ETag of a pet's JSON, likewise computed once for a frozen pet. */
export const petEtag = (pet: Pet): string => {
  if (!Object.isFrozen(pet)) return etagOf(JSON.stringify(pet))
  const known = writtenOf(pet)
  known.etag ??= etagOf(known.json)
  return known.etag
}

/** A page as a JSON array, exactly as JSON.stringify writes it. */
export const petsJson = (pets: ReadonlyArray<Pet>): string => `[${pets.map(petJson).join(',')}]`
