import type { Db, MongoClientOptions, WriteConcernSettings } from 'mongodb'

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

/** The driver's waits bounded by T, the socket's not (ADR 1016); at the client the URI's `readConcernLevel` wins over a `readConcern`. */
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
/** An upsert answered with the document it leaves, bounded so too. */
export const upsertAfter = (timeoutMs: number) => ({ ...serverBound(timeoutMs), upsert: true, returnDocument: 'after' }) as const

/** The server's clock in a pipeline, `$$NOW` plus `laterMs`, moved by `offsetMs` in tests only: no instance's clock dates a record. */
export const serverTime = (offsetMs: number, laterMs = 0): string | { readonly $add: readonly [string, number] } =>
  offsetMs + laterMs === 0 ? '$$NOW' : { $add: ['$$NOW', offsetMs + laterMs] }

/** How an adapter reaches its collections: the database (connecting when needed), PETSTORE_MONGODB_WRITE_CONCERN and T. */
export interface MongoAccess {
  readonly database: () => Promise<Db>
  readonly writeConcern: WriteConcernSettings
  readonly timeoutMs: number
}

/** A collection with the pinned reads and the write concern, its wait bounded by T on the server (index builds take it too). */
export const collectionIn = async <T extends object>({ database, writeConcern, timeoutMs }: MongoAccess, name: string) =>
  (await database()).collection<T>(name, {
    ...PINNED,
    readConcern: { level: 'local' },
    writeConcern: { ...writeConcern, wtimeoutMS: timeoutMs },
  })
