import * as TE from 'fp-ts/TaskEither'
import { type Db, MongoClient, type WriteConcernSettings } from 'mongodb'
import { DEFAULT_LEASE_MS } from '../../src/domain/idempotency-store.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { Store } from '../../src/domain/store.js'
import { ensureIdempotencyIndexes, mongoIdempotencyStore } from './mongo-idempotency-store.js'
import { ensurePetIndexes, mongoPetRepository, SHARED_PET_COLLECTIONS } from './mongo-pet-repository.js'
import { mongoSandboxes } from './mongo-sandboxes.js'
import { seedMongoPets } from './mongo-seed.js'
import { toStoreError } from './store-error.js'

export interface MongoStoreOptions {
  readonly uri: string
  readonly dbName: string
  /** Bound on server selection, connecting and each reply, so a dead database gives a 503, never a hang. */
  readonly timeoutMs: number
  readonly writeConcern: WriteConcernSettings
  /** The pets an empty data set starts from: the shared one, and each sandbox; none by default. */
  readonly seed?: ReadonlyArray<PetDraft>
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

/** Ready when the server answers a ping and the shared collections' indexes exist (created if missing). */
const readiness = (database: () => Promise<Db>) => () =>
  TE.tryCatch(async () => {
    const db = await database()
    await db.command({ ping: 1 })
    await ensurePetIndexes(db)
    await ensureIdempotencyIndexes(db)
  }, toStoreError('ping'))

/**
 * Opens a MongoDB-backed store without waiting for the server, so that a database that is down at
 * start-up or later only costs 503s until it is back. Indexes are created now when possible, and
 * again by every readiness check (createIndex is idempotent).
 */
export const openMongoStore = (options: MongoStoreOptions): Store => {
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
  return {
    shared: {
      pets: mongoPetRepository({ database, writeConcern }),
      idempotency: mongoIdempotencyStore({ database, writeConcern, leaseMs }),
    },
    seed: () => TE.tryCatch(async () => seedMongoPets(await database(), SHARED_PET_COLLECTIONS, seed, writeConcern), toStoreError('seed')),
    sandboxes: mongoSandboxes({ database, writeConcern, seed, leaseMs }),
    ready: readiness(database),
    close: client.close,
  }
}
