import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { type Db, MongoClient, type WriteConcernSettings } from 'mongodb'
import type { StoreUnavailable } from '../../src/domain/errors.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { DEFAULT_LEASE_MS, type IdempotencyStore } from '../../src/domain/idempotency-store.js'
import { ensureIdempotencyIndexes, mongoIdempotencyStore } from './mongo-idempotency-store.js'
import { ensurePetIndexes, mongoPetRepository, SHARED_PET_COLLECTIONS } from './mongo-pet-repository.js'
import { mongoSandboxes, type MongoSandboxPorts } from './mongo-sandboxes.js'
import { type SeedOutcome, seedMongoPets } from './mongo-seed.js'
import { toStoreUnavailable } from './store-error.js'

export interface MongoStoreOptions {
  readonly uri: string
  readonly dbName: string
  /** Bound on server selection, connecting and each reply, so a dead database gives a 503, never a hang. */
  readonly timeoutMs: number
  readonly writeConcern: WriteConcernSettings
  /** The pets an empty data set starts from: the shared one, and each sandbox; none by default. */
  readonly seed?: ReadonlyArray<PetDraft>
}

export interface MongoStore {
  readonly shared: { readonly pets: PetRepository; readonly idempotency: IdempotencyStore }
  /** Seeds the shared collections when they never held a pet, exactly once across instances. */
  readonly seed: () => TE.TaskEither<StoreUnavailable, SeedOutcome>
  readonly sandboxes: {
    readonly open: (sandbox: string) => TE.TaskEither<StoreUnavailable, MongoSandboxPorts>
    readonly reset: (sandbox: string) => TE.TaskEither<StoreUnavailable, void>
  }
  readonly ready: () => TE.TaskEither<StoreUnavailable, void>
  /** Closes the client; called on shutdown once the requests in flight are answered. */
  readonly close: () => Promise<void>
}

/**
 * Hands out one connected client. A connect that fails is forgotten, and its client dropped, so the
 * next call tries afresh: the driver closes a client whose first connect failed for good, so reusing
 * it would keep the service unavailable after the database came back. Once connected, the driver
 * itself rides out outages and reconnects.
 */
const connector = (options: MongoStoreOptions) => {
  // Finding a server, connecting, waiting for a pooled connection and waiting for a reply are each
  // bounded, so that an unreachable or hung database costs at most about the timeout per request.
  const clientOptions = {
    serverSelectionTimeoutMS: options.timeoutMs,
    connectTimeoutMS: options.timeoutMs,
    waitQueueTimeoutMS: options.timeoutMs,
    socketTimeoutMS: options.timeoutMs,
  }
  let connecting: Promise<MongoClient> | undefined
  const connect = (): Promise<MongoClient> => {
    connecting ??= new MongoClient(options.uri, clientOptions).connect().catch((error: unknown) => {
      connecting = undefined
      throw error
    })
    return connecting
  }
  const close = async (): Promise<void> => {
    const current = connecting
    connecting = undefined
    const client = await current?.catch(() => undefined)
    await client?.close()
  }
  return { connect, close }
}

/** Readiness also covers the idempotency records' TTL index. */
const withIdempotencyIndexes = (repository: PetRepository, database: () => Promise<Db>): PetRepository => ({
  ...repository,
  ready: () =>
    pipe(
      repository.ready(),
      TE.flatMap(() => TE.tryCatch(async () => ensureIdempotencyIndexes(await database()), toStoreUnavailable('ensure indexes'))),
    ),
})

/**
 * Opens a MongoDB-backed store without waiting for the server, so that a database that is down at
 * start-up or later only costs 503s until it is back. Indexes are created now when possible, and
 * again by every readiness check (createIndex is idempotent).
 */
export const openMongoStore = (options: MongoStoreOptions): MongoStore => {
  // Refuses a malformed URI or option now, at start-up, rather than on the first request.
  new MongoClient(options.uri, { serverSelectionTimeoutMS: options.timeoutMs })
  const client = connector(options)
  const database = async (): Promise<Db> => (await client.connect()).db(options.dbName)
  database()
    .then(async (db) => {
      await ensurePetIndexes(db)
      await ensureIdempotencyIndexes(db)
    })
    .catch(() => {
      // Not reachable yet: /readyz stays 503 and retries until the indexes exist.
    })
  const { writeConcern, seed = [] } = options
  // A claim must outlive the slowest create (a few calls, each bounded by the timeout), or a retry
  // could take it over while the first request still creates its pet.
  const leaseMs = Math.max(DEFAULT_LEASE_MS, 5 * options.timeoutMs)
  const repository = withIdempotencyIndexes(mongoPetRepository({ database, writeConcern }), database)
  return {
    shared: { pets: repository, idempotency: mongoIdempotencyStore({ database, writeConcern, leaseMs }) },
    seed: () =>
      TE.tryCatch(async () => seedMongoPets(await database(), SHARED_PET_COLLECTIONS, seed, writeConcern), toStoreUnavailable('seed')),
    sandboxes: mongoSandboxes({ database, writeConcern, seed, leaseMs }),
    ready: repository.ready,
    close: client.close,
  }
}
