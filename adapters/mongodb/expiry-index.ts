import type { Db } from 'mongodb'
import { DEFAULT_INDEX_BUILD, type IndexBuild } from './mongo-options.js'

/** MongoDB deletes a document once its `expiresAt` has passed (the TTL monitor runs about every minute). */
export const EXPIRY_INDEX = { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 } as const

/** Creates the TTL index on `collection`; idempotent like every createIndex. */
export const ensureExpiryIndex = async (db: Db, collection: string, build: IndexBuild = DEFAULT_INDEX_BUILD): Promise<void> => {
  await db
    .collection(collection, build.collection)
    .createIndex(EXPIRY_INDEX.key, { ...build.index, name: EXPIRY_INDEX.name, expireAfterSeconds: EXPIRY_INDEX.expireAfterSeconds })
}
