import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import * as TE from 'fp-ts/TaskEither'
import { type InvalidParameter, invalidParameter, type PetNotFound, petNotFound, type StoreError } from './errors.js'
import { INT64_MAX, INT64_MIN, parseIntegerText } from './integer-text.js'
import type { Pet } from './pet.js'
import type { PetRepository } from './pet-repository.js'

const PET_ID_PROBLEM = 'petId: must be a decimal integer between -9223372036854775808 and 9223372036854775807, without leading zeros'

/**
 * Reads the path's petId. Any int64 is a well-formed id (spec §4.3: int64), so one that no pet can
 * have (zero, negative, beyond 2^53) is simply not found; only text that is no int64 is invalid.
 */
const decodePetId = (text: string): E.Either<InvalidParameter, bigint> => {
  const value = parseIntegerText(text)
  return value === undefined || value < INT64_MIN || value > INT64_MAX ? E.left(invalidParameter([PET_ID_PROBLEM])) : E.right(value)
}

const MAX_STORABLE_ID = BigInt(Number.MAX_SAFE_INTEGER)

/** Ids are positive safe integers, so only those need a look-up. */
const storableId = (id: bigint): O.Option<number> => (id > 0n && id <= MAX_STORABLE_ID ? O.some(Number(id)) : O.none)

/**
 * getPet (spec §4.3, deprecated): the pet with that id, or PetNotFound. The id is read before the
 * TaskEither starts, and the store's answer is turned into the result in one step: every step of a
 * TaskEither pipeline is a promise, and fp-ts's data-first combinators (flatMap) copy their
 * arguments on every call, which showed in the profile of a get.
 */
export const getPet =
  (deps: { readonly pets: PetRepository }) =>
  (petIdText: string): TE.TaskEither<InvalidParameter | PetNotFound | StoreError, Pet> => {
    const id = decodePetId(petIdText)
    if (E.isLeft(id)) return TE.left(id.left)
    const storable = storableId(id.right)
    if (O.isNone(storable)) return TE.left(petNotFound(id.right.toString()))
    const find = deps.pets.findById(storable.value)
    return () =>
      find().then((found): E.Either<PetNotFound | StoreError, Pet> => {
        if (E.isLeft(found)) return found
        return O.isSome(found.right) ? E.right(found.right.value) : E.left(petNotFound(id.right.toString()))
      })
  }
