import { type Db, MongoClient, type WriteConcernSettings } from 'mongodb'
import type { PetDraft } from '../../src/domain/pet.js'
import type { Store } from '../../src/ports/store.js'
import { ensureIdempotencyIndexes, mongoIdempotencyStore } from './mongo-idempotency-store.js'
import { ensurePetIndexes, mongoPetRepository, SHARED_PET_COLLECTIONS } from './mongo-pet-repository.js'
import { mongoCall } from './mongo-call.js'
import { clientOptions, indexBuild, leaseFor, type MongoAccess } from './mongo-options.js'
import { ensureRateLimitIndexes, mongoRateLimitCounter } from './mongo-rate-limit-counter.js'
import { seedMongoPets, seedRoundTrips } from './mongo-seed.js'

export interface MongoStoreOptions {
  readonly uri: string
  readonly dbName: string
  /**
   * PETSTORE_MONGODB_TIMEOUT_MS: the bound on each round trip to the database, so that a dead or
   * hung database gives a 503, never a hang (see mongo-options.ts and deadline.ts).
   */
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
  let connecting: Promise<MongoClient> | undefined
  const connect = (): Promise<MongoClient> => {
    connecting ??= new MongoClient(options.uri, clientOptions(options.timeoutMs)).connect().catch((error: unknown) => {
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

/** Creates every index of the shared collections (createIndex is idempotent): one round trip each, each an IndexBuild. */
export const ensureSharedIndexes = async (
  db: Db,
  { writeConcern, timeoutMs }: Pick<MongoAccess, 'writeConcern' | 'timeoutMs'>,
): Promise<void> => {
  const build = indexBuild(writeConcern, timeoutMs)
  await ensurePetIndexes(db, build)
  await ensureIdempotencyIndexes(db, build)
  await ensureRateLimitIndexes(db, build)
}
const SHARED_INDEX_ROUND_TRIPS = 3

/** Ready when the server answers a ping and the shared collections' indexes exist (created if missing). */
const readiness = (access: MongoAccess) => () =>
  mongoCall(
    access,
    'ping',
    async () => {
      const db = await access.database()
      await db.command({ ping: 1 })
      await ensureSharedIndexes(db, access)
    },
    1 + SHARED_INDEX_ROUND_TRIPS,
  )

/**
 * Through a direct connection the driver sends every read as `primaryPreferred` to the one member
 * it reaches (see the driver's connection.js), so a member that stepped down would serve stale
 * reads, which the pinned `primary` cannot prevent. Refused rather than overridden: an operator who
 * needs it (members whose advertised names the service cannot resolve) must hear why it fails.
 */
const refuseDirectConnection = (client: MongoClient): void => {
  if (client.options.directConnection) {
    throw new Error(
      'directConnection=true is refused: the driver then reads from whichever member it reaches, a secondary included; ' +
        'leave it out (the driver finds the primary) and make the members reachable by the names they advertise',
    )
  }
}

/**
 * Opens a MongoDB-backed store without waiting for the server, so that a database that is down at
 * start-up or later only costs 503s until it is back. Indexes are created now when possible, and
 * again by every readiness check (createIndex is idempotent).
 */
export const openMongoStore = (options: MongoStoreOptions): Store => {
  // Refuses a malformed URI or option now, at start-up, rather than on the first request.
  refuseDirectConnection(new MongoClient(options.uri, clientOptions(options.timeoutMs)))
  const client = connector(options)
  const { writeConcern, timeoutMs, seed = [] } = options
  const access: MongoAccess = { database: async () => (await client.connect()).db(options.dbName), writeConcern, timeoutMs }
  access
    .database()
    .then((db) => ensureSharedIndexes(db, access))
    .catch(() => {
      // Not reachable yet: /readyz stays 503 and retries until the indexes exist.
    })
  const leaseMs = leaseFor(timeoutMs)
  const { database } = access
  return {
    shared: {
      pets: mongoPetRepository({ database, writeConcern, timeoutMs }),
      idempotency: mongoIdempotencyStore({ database, writeConcern, timeoutMs, leaseMs }),
    },
    seed: () => mongoCall(access, 'seed', () => seedMongoPets(access, SHARED_PET_COLLECTIONS, seed), seedRoundTrips(seed.length)),
    rateLimits: mongoRateLimitCounter({ database, timeoutMs }),
    ready: readiness(access),
    close: client.close,
  }
}
