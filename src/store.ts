import { memoryPetRepository } from '../adapters/memory/memory-pet-repository.js'
import { openMongoStore } from '../adapters/mongodb/mongo-store.js'
import type { PetRepository } from './domain/pet-repository.js'
import type { StoreConfig } from './config.js'

export interface Store {
  readonly repository: PetRepository
  readonly close: () => Promise<void>
}

/** The one place that chooses the storage adapter; nothing else changes when it does. */
export const openStore = (config: StoreConfig): Store => {
  switch (config.kind) {
    case 'memory':
      return { repository: memoryPetRepository(), close: async () => undefined }
    case 'mongodb':
      return openMongoStore({
        uri: config.uri,
        dbName: config.dbName,
        timeoutMs: config.timeoutMs,
        writeConcern: { w: config.writeConcern },
      })
  }
}
