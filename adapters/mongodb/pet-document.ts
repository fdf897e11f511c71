import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import { describeErrors } from '../../src/domain/codec.js'
import { Pet } from '../../src/domain/pet.js'

/** How a pet is stored: its id is the document's `_id`, so the primary index serves get and pages; `createId` is never read back. */
export interface PetDocument {
  readonly _id: number
  readonly name: string
  readonly categoryId: number
  readonly status: Pet['status']
  readonly createId?: string
}

export const toDocument = (pet: Pet): PetDocument => ({ _id: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status })

/** A stored document read back through the Pet codec: nothing of BSON reaches a client, and a document that is no pet is reported. */
export const fromDocument = (document: unknown): E.Either<string, Pet> => {
  const fields = (typeof document === 'object' && document !== null ? document : {}) as Record<string, unknown>
  return pipe(
    Pet.decode({ id: fields._id, name: fields.name, categoryId: fields.categoryId, status: fields.status }),
    E.mapLeft((errors) => `stored pet ${String(fields._id)} is malformed: ${describeErrors(errors).join('; ')}`),
  )
}
