import type { IdempotencyStore } from '../domain/idempotency-store.js'
import type { PetRepository } from '../domain/pet-repository.js'

/** The ports of one data set: everyone's, or a named one (DataSets). */
export interface StorePorts {
  readonly pets: PetRepository
  readonly idempotency: IdempotencyStore
}
