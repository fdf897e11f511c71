import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import { describeErrors } from '../../src/domain/codec.js'
import { Pet } from '../../src/domain/pet.js'

/** How a pet is stored: its numeric id is the document's `_id`, so the primary index serves get and pages. */
export interface PetDocument {
  readonly _id: number
  readonly name: string
  readonly categoryId: number
  readonly status: Pet['status']
  /** The create id it was inserted under (see PetRepository.insert); never read back into a pet. */
  readonly createId?: string
}

export const toDocument = (pet: Pet): PetDocument => ({
  _id: pet.id,
  name: pet.name,
  categoryId: pet.categoryId,
  status: pet.status,
})

/**
 * Reads a stored document back through the Pet codec, so that nothing of BSON (ObjectId, Long,
 * extra fields) can reach a client, and a document that is not a pet is reported instead of served.
 */
export const fromDocument = (document: unknown): E.Either<string, Pet> => {
  const fields = (typeof document === 'object' && document !== null ? document : {}) as Record<string, unknown>
  return pipe(
    Pet.decode({ id: fields._id, name: fields.name, categoryId: fields.categoryId, status: fields.status }),
    E.mapLeft((errors) => `stored pet ${String(fields._id)} is malformed: ${describeErrors(errors).join('; ')}`),
  )
}
