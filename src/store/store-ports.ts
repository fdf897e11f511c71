import * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import type { StoreError } from '../domain/errors.js'
import type { IdempotencyStore } from '../domain/idempotency-store.js'
import type { PetRepository } from '../domain/pet-repository.js'

/** The ports of one data set: everyone's, or a named one (DataSets). */
export interface StorePorts {
  readonly pets: PetRepository
  readonly idempotency: IdempotencyStore
}

/**
 * `ports` with every create refused while `refusal` names a reason, each time it is run: the insert,
 * and the claim of an Idempotency-Key before it, so that a refused create writes nothing and leaves
 * its key free for any body.
 */
export const gateCreates = (ports: StorePorts, refusal: () => StoreError | undefined): StorePorts => {
  const gated =
    <A>(task: TE.TaskEither<StoreError, A>): TE.TaskEither<StoreError, A> =>
    () => {
      const refused = refusal()
      return refused === undefined ? task() : Promise.resolve(E.left(refused))
    }
  return {
    pets: { ...ports.pets, insert: (draft, createId) => gated(ports.pets.insert(draft, createId)) },
    idempotency: { ...ports.idempotency, claim: (scope, fingerprint) => gated(ports.idempotency.claim(scope, fingerprint)) },
  }
}
