import type { Db, MongoClientOptions, WriteConcernSettings } from 'mongodb'

/** PETSTORE_MONGODB_TIMEOUT_MS when not set: T, the bound on each round trip. */
export const DEFAULT_TIMEOUT_MS = 2000

/**
 * Whatever MONGODB_URI says (options given here win: parseOptions in the driver's
 * connection_string.ts): reads from the primary with read concern `local` (ADR 1009), and values
 * decoded as the codecs expect them, never BSON wrappers, bigints or raw buffers.
 */
const PINNED = {
  readPreference: 'primary',
  promoteValues: true,
  promoteLongs: true,
  promoteBuffers: false,
  useBigInt64: false,
  bsonRegExp: false,
  raw: false,
} as const

/**
 * The client for T: finding a server, connecting and getting a pooled connection each take at most
 * T. No socket timeout: the call's deadline and `maxTimeMS` bound every wait, and it would cut an
 * index build. At the client the URI's `readConcernLevel` wins over a `readConcern` object.
 */
export const clientOptions = (timeoutMs: number): MongoClientOptions => ({
  ...PINNED,
  readConcernLevel: 'local',
  serverSelectionTimeoutMS: timeoutMs,
  connectTimeoutMS: timeoutMs,
  waitQueueTimeoutMS: timeoutMs,
  socketTimeoutMS: 0,
})

/** The server stops a command after T (`maxTimeMS`, which bounds its wait for the write concern too). */
export const serverBound = (timeoutMs: number): { readonly maxTimeMS: number } => ({ maxTimeMS: timeoutMs })

/** How an adapter reaches its collections: the database (connecting when needed), PETSTORE_MONGODB_WRITE_CONCERN and T. */
export interface MongoAccess {
  readonly database: () => Promise<Db>
  readonly writeConcern: WriteConcernSettings
  readonly timeoutMs: number
}

export type MongoAdapterOptions = Pick<MongoAccess, 'database'> & Partial<MongoAccess>

export const accessOf = (options: MongoAdapterOptions): MongoAccess => ({
  writeConcern: { w: 'majority' },
  timeoutMs: DEFAULT_TIMEOUT_MS,
  ...options,
})

/**
 * A collection with the pinned reads and the write concern, whose wait the server bounds by T
 * (`wtimeoutMS`: a 503, not a write held on a lagging member); index builds take it from here too
 * (resolveOptions in the driver's utils.ts).
 */
export const collectionIn = async <T extends object>({ database, writeConcern, timeoutMs }: MongoAccess, name: string) =>
  (await database()).collection<T>(name, {
    ...PINNED,
    readConcern: { level: 'local' },
    writeConcern: { ...writeConcern, wtimeoutMS: timeoutMs },
  })
