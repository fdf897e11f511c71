import * as E from 'fp-ts/Either'
import { memoryIdempotencyStore } from '../adapters/memory/memory-idempotency-store.js'
import { memoryPetRepository } from '../adapters/memory/memory-pet-repository.js'
import { openMongoStore } from '../adapters/mongodb/mongo-store.js'
import type { IdempotencyStore } from './domain/idempotency-store.js'
import type { PetRepository } from './domain/pet-repository.js'
import type { StoreConfig } from './config.js'

export interface Store {
  readonly repository: PetRepository
  readonly idempotency: IdempotencyStore
  readonly close: () => Promise<void>
}

/**
 * The one place that chooses the storage adapter; nothing else changes when it does. A setting the
 * driver refuses (a bad option in MONGODB_URI) is reported as a message naming it.
 */
export const openStore = (config: StoreConfig): E.Either<string, Store> => {
  switch (config.kind) {
    case 'memory':
      return E.right({ repository: memoryPetRepository(), idempotency: memoryIdempotencyStore(), close: async () => undefined })
    case 'mongodb':
      return E.tryCatch(
        () => openMongoStore({ uri: config.uri, dbName: config.dbName, timeoutMs: config.timeoutMs, writeConcern: { w: config.writeConcern } }),
        (error) => `MONGODB_URI is invalid: ${error instanceof Error ? error.message : String(error)}`,
      )
  }
}
