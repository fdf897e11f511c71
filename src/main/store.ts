import * as E from 'fp-ts/Either'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { PetDraft } from '../domain/pet.js'
import { DEFAULT_SANDBOX_BUDGET } from '../store/sandbox-budget.js'
import type { Store, StoreLog } from '../store/store.js'
import type { StoreConfig } from './store-config.js'

/**
 * The one place that chooses the storage adapter; nothing else changes when it does. A setting the
 * driver refuses (a bad option in MONGODB_URI) is reported as a message naming it; `log` hears what
 * the store does in the background (MongoDB's index builds). The MongoDB
 * adapter and its driver are loaded only when chosen: they are a third of what the embedded
 * default would otherwise load at start.
 */
export const openStore = async (
  config: StoreConfig,
  seed: ReadonlyArray<PetDraft> = [],
  log: StoreLog = () => undefined,
): Promise<E.Either<string, Store>> => {
  switch (config.kind) {
    case 'memory':
      // Its data sets are the test target's sandboxes, each bounded by the store's part of their budget.
      return E.right(memoryStore(seed, {}, DEFAULT_SANDBOX_BUDGET.storeBytes))
    case 'mongodb': {
      const { openMongoStore } = await import('../../adapters/mongodb/mongo-store.js')
      return E.tryCatch(
        () =>
          openMongoStore({
            uri: config.uri,
            dbName: config.dbName,
            timeoutMs: config.timeoutMs,
            writeConcern: { w: config.writeConcern },
            seed,
            log,
          }),
        (error) => `MONGODB_URI is invalid: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }
}
