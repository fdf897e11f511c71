import type { Db, MongoClientOptions, WriteConcernSettings } from 'mongodb'

/** PETSTORE_MONGODB_TIMEOUT_MS when not set: T, the bound on each round trip. */
export const DEFAULT_TIMEOUT_MS = 2000

/** Whatever MONGODB_URI says (given options win: parseOptions in connection_string.ts): reads from the primary, plain values for the codecs. */
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
 * Server selection, connect and pool checkout each take at most T; no socket timeout, which would
 * cut an index build. At the client the URI's `readConcernLevel` wins over a `readConcern` object.
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

/**
 * The server's clock in a pipeline update, `$$NOW` plus `laterMs`, moved by `offsetMs` (0 but in
 * tests): expiry and windows never read an instance's clock, and the TTL monitor reads the server's.
 */
export const serverTime = (offsetMs: number, laterMs = 0): string | { readonly $add: readonly [string, number] } =>
  offsetMs + laterMs === 0 ? '$$NOW' : { $add: ['$$NOW', offsetMs + laterMs] }

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

/** A collection with the pinned reads and the write concern, its wait bounded by T on the server (index builds take it too). */
export const collectionIn = async <T extends object>({ database, writeConcern, timeoutMs }: MongoAccess, name: string) =>
  (await database()).collection<T>(name, {
    ...PINNED,
    readConcern: { level: 'local' },
    writeConcern: { ...writeConcern, wtimeoutMS: timeoutMs },
  })
