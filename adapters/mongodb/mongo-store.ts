import * as E from 'fp-ts/Either'
import * as TE from 'fp-ts/TaskEither'
import { MongoClient, type WriteConcernSettings } from 'mongodb'
import type { StoreError } from '../../src/domain/errors.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import type { Store } from '../../src/wiring/store.js'
import { mongoIdempotencyStore } from './mongo-idempotency-store.js'
import { mongoPetRepository, SHARED_PET_COLLECTIONS } from './mongo-pet-repository.js'
import { mongoCall } from './mongo-call.js'
import { clientOptions, leaseFor, type MongoAccess } from './mongo-options.js'
import { mongoRateLimitCounter } from './mongo-rate-limit-counter.js'
import { seedMongoPets, seedRoundTrips } from './mongo-seed.js'
import { buildSharedIndexes, type SharedIndexes } from './shared-indexes.js'

export interface MongoStoreOptions {
  readonly uri: string
  readonly dbName: string
  /** PETSTORE_MONGODB_TIMEOUT_MS (see MongoAccess). */
  readonly timeoutMs: number
  readonly writeConcern: WriteConcernSettings
  /** The pets an empty data set starts from; none by default. */
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

/**
 * Ready when every index is built (in the background, see shared-indexes.ts) and the server
 * answers a ping: one round trip, bounded like any, and no index build in a probe.
 */
const readiness = (access: MongoAccess, indexes: SharedIndexes) => (): TE.TaskEither<StoreError, void> =>
  indexes.built()
    ? mongoCall(access, 'ping', async () => {
        await (await access.database()).command({ ping: 1 })
      })
    : TE.left(indexes.refusal())

/**
 * Every create waits for the indexes (503 with Retry-After meanwhile), not only one under a create
 * id, which alone needs createId_1: one rule, the same as readiness's, for a client and an operator
 * alike (an instance that is not ready takes no create), and the wait comes once per start.
 */
const afterIndexes = (pets: PetRepository, indexes: SharedIndexes): PetRepository => ({
  ...pets,
  insert: (draft, createId) => () => (indexes.built() ? pets.insert(draft, createId)() : Promise.resolve(E.left(indexes.refusal()))),
})

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

/** The store, and when its background index builds end (every index built, or closed first): for tests, which wait for it. */
export interface MongoStore extends Store {
  readonly indexBuilds: Promise<void>
}

/**
 * The store over `access`, whose client `closeClient` closes; apart from openMongoStore so that a
 * test can give it a stand-in database. The indexes are built once, in the background, from now.
 */
export const mongoStoreOn = (access: MongoAccess, seed: ReadonlyArray<PetDraft>, closeClient: () => Promise<void>): MongoStore => {
  const indexes = buildSharedIndexes(access.database)
  const { database, timeoutMs } = access
  return {
    shared: {
      pets: afterIndexes(mongoPetRepository(access), indexes),
      idempotency: mongoIdempotencyStore({ ...access, leaseMs: leaseFor(timeoutMs) }),
    },
    seed: () => mongoCall(access, 'seed', () => seedMongoPets(access, SHARED_PET_COLLECTIONS, seed), seedRoundTrips(seed.length)),
    rateLimits: mongoRateLimitCounter({ database, timeoutMs }),
    ready: readiness(access, indexes),
    close: async () => {
      indexes.stop()
      await closeClient()
    },
    indexBuilds: indexes.finished,
  }
}

/**
 * Opens a MongoDB-backed store without waiting for the server, so that a database that is down at
 * start-up or later only costs 503s until it is back.
 */
export const openMongoStore = (options: MongoStoreOptions): MongoStore => {
  // Refuses a malformed URI or option now, at start-up, rather than on the first request.
  refuseDirectConnection(new MongoClient(options.uri, clientOptions(options.timeoutMs)))
  const client = connector(options)
  const { writeConcern, timeoutMs, seed = [] } = options
  return mongoStoreOn({ database: async () => (await client.connect()).db(options.dbName), writeConcern, timeoutMs }, seed, client.close)
}
