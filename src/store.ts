import * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import { memoryStore } from '../adapters/memory/memory-store.js'
import { openMongoStore } from '../adapters/mongodb/mongo-store.js'
import type { StoreUnavailable } from './domain/errors.js'
import type { IdempotencyStore } from './domain/idempotency-store.js'
import type { PetDraft } from './domain/pet.js'
import type { PetRepository } from './domain/pet-repository.js'
import type { StoreConfig } from './config.js'

/** The ports of one data set: everyone's, or one sandbox's. */
export interface StorePorts {
  readonly pets: PetRepository
  readonly idempotency: IdempotencyStore
}

/**
 * Per-key data sets, named by a hex id (the key's scope). Each starts from the seed the first time
 * it is opened; reset puts it back there: its ids start again and its idempotency records are gone.
 */
export interface SandboxSpace {
  readonly open: (sandbox: string) => TE.TaskEither<StoreUnavailable, StorePorts>
  readonly reset: (sandbox: string) => TE.TaskEither<StoreUnavailable, void>
}

/** What seeding the shared data set found: empty (now seeded), or holding pets (left alone). */
export type SeedOutcome = { readonly kind: 'seeded'; readonly count: number } | { readonly kind: 'not-empty' }

export interface Store {
  /** The one data set every key shares when sandboxes are off. */
  readonly shared: StorePorts
  /** Applies the seed to the shared data set if it never held a pet; exactly once across instances. */
  readonly seed: () => TE.TaskEither<StoreUnavailable, SeedOutcome>
  readonly sandboxes: SandboxSpace
  /** Whether the store can serve requests now (/readyz). */
  readonly ready: () => TE.TaskEither<StoreUnavailable, void>
  readonly close: () => Promise<void>
}

/**
 * The one place that chooses the storage adapter; nothing else changes when it does. A setting the
 * driver refuses (a bad option in MONGODB_URI) is reported as a message naming it.
 */
export const openStore = (config: StoreConfig, seed: ReadonlyArray<PetDraft> = []): E.Either<string, Store> => {
  switch (config.kind) {
    case 'memory':
      return E.right(memoryStore(seed))
    case 'mongodb':
      return E.tryCatch(
        () => openMongoStore({ uri: config.uri, dbName: config.dbName, timeoutMs: config.timeoutMs, writeConcern: { w: config.writeConcern }, seed }),
        (error) => `MONGODB_URI is invalid: ${error instanceof Error ? error.message : String(error)}`,
      )
  }
}
