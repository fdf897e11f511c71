import * as TE from 'fp-ts/TaskEither'
import { MongoClient } from 'mongodb'
import type { PetDraft } from '../../src/domain/pet.js'
import { gateCreates } from '../../src/store/store-ports.js'
import type { Store, StoreLog } from '../../src/store/store.js'
import { mongoCall } from './mongo-call.js'
import { mongoIdempotencyStore } from './mongo-idempotency-store.js'
import { clientOptions, type MongoAccess } from './mongo-options.js'
import { mongoPetRepository } from './mongo-pet-repository.js'
import { mongoRateLimitCounter } from './mongo-rate-limit-counter.js'
import { seedMongoPets, seedRoundTrips } from './mongo-seed.js'
import { buildSharedIndexes } from './shared-indexes.js'

export interface MongoStoreOptions extends Omit<MongoAccess, 'database'> {
  readonly uri: string
  readonly dbName: string
  /** The pets an empty data set starts from. */
  readonly seed?: ReadonlyArray<PetDraft>
  readonly log?: StoreLog
}

/** The store, and when its background index builds end (every index built, or closed first): for tests, which wait for it. */
export interface MongoStore extends Store {
  readonly indexBuilds: Promise<void>
}

/** The store over `access` (a test's stand-in database, or openMongoStore's), whose client `closeClient` closes. */
export const mongoStoreOn = (
  access: MongoAccess,
  seed: ReadonlyArray<PetDraft>,
  closeClient: () => Promise<void>,
  log: StoreLog = () => undefined,
): MongoStore => {
  const indexes = buildSharedIndexes(access, log)
  const ping = () => mongoCall(access, 'ping', async () => void (await (await access.database()).command({ ping: 1 })))
  return {
    shared: gateCreates({ pets: mongoPetRepository(access), idempotency: mongoIdempotencyStore(access) }, indexes.createsWait),
    seed: () => mongoCall(access, 'seed', () => seedMongoPets(access, seed), seedRoundTrips(seed.length)),
    // A count is a hint, not a record: acknowledged by the primary alone.
    rateLimits: mongoRateLimitCounter({ ...access, writeConcern: { w: 1 } }),
    ready: () => {
      const waiting = indexes.readsWait()
      return waiting === undefined ? ping() : TE.left(waiting)
    },
    close: async () => {
      indexes.stop()
      await closeClient()
    },
    indexBuilds: indexes.finished,
  }
}

/** Opens the store without waiting for the server (ADR 0902); a client whose connect failed (the driver closes it) is forgotten. */
export const openMongoStore = ({ uri, dbName, timeoutMs, writeConcern, seed = [], log }: MongoStoreOptions): MongoStore => {
  // A malformed URI or option throws now, at start-up, rather than on the first request.
  void new MongoClient(uri, clientOptions(timeoutMs))
  let connecting: Promise<MongoClient> | undefined
  const connect = (): Promise<MongoClient> =>
    (connecting ??= new MongoClient(uri, clientOptions(timeoutMs)).connect().catch((error: unknown) => {
      connecting = undefined
      throw error
    }))
  const close = async (): Promise<void> => {
    const current = connecting
    connecting = undefined
    await (await current?.catch(() => undefined))?.close()
  }
  return mongoStoreOn({ database: async () => (await connect()).db(dbName), writeConcern, timeoutMs }, seed, close, log)
}
