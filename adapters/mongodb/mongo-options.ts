import type { CollectionOptions, Db, MongoClientOptions, WriteConcernSettings } from 'mongodb'
import { DEFAULT_LEASE_MS } from '../../src/domain/idempotency-store.js'

/** PETSTORE_MONGODB_TIMEOUT_MS when not set: the bound on each round trip to the database. */
export const DEFAULT_TIMEOUT_MS = 2000

/**
 * What every read and decode of the service relies on, whatever MONGODB_URI says (options given
 * here win over the URI's, see the driver's parseOptions): reads from the primary, which holds
 * every acknowledged write, so that a claim's duplicate and a GET right after a 201 are seen; the
 * `local` read concern, which on the primary shows a write once it is acknowledged; and values
 * decoded as the io-ts codecs expect them (numbers and strings, never BSON wrappers, bigints or raw
 * buffers). A `maxStalenessSeconds` in the URI cannot go with the primary: the driver refuses it,
 * and the service stops at start naming MONGODB_URI.
 */
const PINNED_READS = {
  readPreference: 'primary',
  readConcern: { level: 'local' },
  promoteValues: true,
  promoteLongs: true,
  promoteBuffers: false,
  useBigInt64: false,
  bsonRegExp: false,
  raw: false,
} as const satisfies CollectionOptions

/**
 * The client's options for PETSTORE_MONGODB_TIMEOUT_MS = `timeoutMs`: finding a server, connecting
 * and getting a pooled connection are each bounded by it (the driver's Topology.selectServer,
 * ConnectionPool.checkOut and connect in cmap/connect.ts). The socket has no timeout of its own
 * (`socketTimeoutMS` 0, whatever the URI says): the call's deadline (withDeadline) and `maxTimeMS`
 * bound every wait, so it would add nothing but a cut index build (see INDEX_BUILD).
 * A connection left waiting on a server that went silent is freed by the driver's monitor: a
 * heartbeat that times out (within about connectTimeoutMS + heartbeatFrequencyMS, sdam/monitor.ts)
 * clears the pool and interrupts the connections in use (updateServers in sdam/topology.ts,
 * interruptInUseConnections in cmap/connection_pool.ts). The driver's `timeoutMS` is not used: in
 * 7.9 it is deprecated and has no effect.
 */
export const clientOptions = (timeoutMs: number): MongoClientOptions => {
  const { readConcern, ...pinned } = PINNED_READS
  return {
    ...pinned,
    // At the client the URI's readConcernLevel would win over a readConcern object (it is applied
    // after it), so the level is given under the URI's own name.
    readConcernLevel: readConcern.level,
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    waitQueueTimeoutMS: timeoutMs,
    socketTimeoutMS: 0,
  }
}

/**
 * The server-side bound of each command (`maxTimeMS`, which also bounds the wait for the write
 * concern): the server stops the work and answers MaxTimeMSExpired, instead of running on after the
 * service has given up. Never on an index build (see INDEX_BUILD).
 */
export const serverBound = (timeoutMs: number): { readonly maxTimeMS: number } => ({ maxTimeMS: timeoutMs })

/**
 * The collection options of an index build. No time limit: the server aborts an index build whose
 * createIndexes passes its `maxTimeMS` (mongodb/mongo jstests/noPassthrough/index_builds/
 * index_max_time_ms.js), so a build on a large collection would never finish; and the driver adds
 * `maxTimeMS` to a command only when the call's options carry it (operations/command.ts). The
 * write concern is `majority` whatever the URI says (`w=0` there would leave a build
 * unacknowledged): an index the store counts as built then survives a failover, and a
 * PETSTORE_MONGODB_WRITE_CONCERN the server refuses is the create's 500, not a store that never
 * becomes ready. createIndex takes the write concern from the collection (resolveOptions in utils.ts).
 */
export const INDEX_BUILD: CollectionOptions = { writeConcern: { w: 'majority' } }

/** How an adapter reaches its collections. */
export interface MongoAccess {
  /** The database, connecting first when needed; a rejection becomes a StoreError. */
  readonly database: () => Promise<Db>
  /** Acknowledgement required before a write is answered; `majority` by default. */
  readonly writeConcern: WriteConcernSettings
  /** The bound on each round trip (PETSTORE_MONGODB_TIMEOUT_MS). */
  readonly timeoutMs: number
}

/** An adapter's options: the database, and its write concern and timeout unless the defaults do. */
export type MongoAdapterOptions = Pick<MongoAccess, 'database'> & Partial<MongoAccess>

export const accessOf = (options: MongoAdapterOptions): MongoAccess => ({
  writeConcern: { w: 'majority' },
  timeoutMs: DEFAULT_TIMEOUT_MS,
  ...options,
})

/**
 * One of the service's collections: the pinned reads, and the write concern with the server-side
 * bound on waiting for it (`wtimeoutMS`), so that a `majority` write waiting on a lagging secondary
 * is answered by the server (503) rather than held.
 */
export const collectionIn = async <T extends object>({ database, writeConcern, timeoutMs }: MongoAccess, name: string) =>
  (await database()).collection<T>(name, { ...PINNED_READS, writeConcern: { ...writeConcern, wtimeoutMS: timeoutMs } })

/**
 * Round trips from a claim to its completion: the claim (two when claims race), the id, the insert
 * (and the read of the pet an earlier insert under the create id stored), the completion.
 */
export const CREATE_ROUND_TRIPS = 6
/** For what the round-trip bounds do not cover: the service's own work between them, a busy event loop. */
const LEASE_MARGIN_MS = 5000

/**
 * How long a claim holds its key: longer than the slowest idempotent create that still answers
 * 201, so that no other request takes the key over from a create that succeeds. Each round trip
 * is abandoned after `timeoutMs` (see mongo-call.ts), so a create that completes does so within
 * CREATE_ROUND_TRIPS × timeoutMs of its claim; the 30-second default stays the floor.
 */
export const leaseFor = (timeoutMs: number): number => Math.max(DEFAULT_LEASE_MS, CREATE_ROUND_TRIPS * timeoutMs + LEASE_MARGIN_MS)
