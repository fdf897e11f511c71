import { createPet } from './create-pet.js'
import { getPet } from './get-pet.js'
import { listPets } from './list-pets.js'
import type { IdempotencyStore } from './idempotency-store.js'
import type { PetRepository } from './pet-repository.js'

/**
 * The three operations of the spec, bound to their ports: what a driver (HTTP, tests) calls. Each
 * is a pipeline of named steps that returns a task (docs/adr/0106-use-cases-are-fp-ts-pipelines-whose-per-call-steps-are-plain.md).
 */
export interface PetUseCases {
  readonly listPets: ReturnType<typeof listPets>
  readonly createPet: ReturnType<typeof createPet>
  readonly getPet: ReturnType<typeof getPet>
}

export const petUseCases = (deps: { readonly pets: PetRepository; readonly idempotency: IdempotencyStore }): PetUseCases => ({
  listPets: listPets(deps),
  createPet: createPet(deps),
  getPet: getPet(deps),
})
