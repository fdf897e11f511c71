import { createPet } from './create-pet.js'
import { createPetIdempotently } from './create-pet-idempotently.js'
import { getPet } from './get-pet.js'
import { listPets } from './list-pets.js'
import type { IdempotencyStore } from './idempotency-store.js'
import type { PetRepository } from './pet-repository.js'

/**
 * The three operations of the spec, bound to their ports: what a driver (HTTP, tests) calls. Each
 * returns a task; those whose steps simply follow one another are async functions over Either
 * values, since every fp-ts combinator adds promise steps to each request (measured in
 * docs/performance.md).
 */
export interface PetUseCases {
  readonly listPets: ReturnType<typeof listPets>
  readonly createPet: ReturnType<typeof createPet>
  readonly getPet: ReturnType<typeof getPet>
  /** createPet for a request that carries an idempotency key. */
  readonly createPetIdempotently: ReturnType<typeof createPetIdempotently>
}

export const petUseCases = (deps: { readonly pets: PetRepository; readonly idempotency: IdempotencyStore }): PetUseCases => ({
  listPets: listPets(deps),
  createPet: createPet(deps),
  getPet: getPet(deps),
  createPetIdempotently: createPetIdempotently(deps),
})
