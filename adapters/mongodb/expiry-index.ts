import type { Db } from 'mongodb'
import { INDEX_BUILD } from './mongo-options.js'

/** MongoDB deletes a document once its `expiresAt` has passed (the TTL monitor runs about every minute). */
export const EXPIRY_INDEX = { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 } as const

/** Creates the TTL index on `collection`; idempotent like every createIndex. */
export const ensureExpiryIndex = async (db: Db, collection: string): Promise<void> => {
  await db
    .collection(collection, INDEX_BUILD)
    .createIndex(EXPIRY_INDEX.key, { name: EXPIRY_INDEX.name, expireAfterSeconds: EXPIRY_INDEX.expireAfterSeconds })
}
