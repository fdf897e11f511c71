import { setTimeout as pause } from 'node:timers/promises'
import type { Db } from 'mongodb'
import { type StoreError, storeUnavailable } from '../../src/domain/errors.js'
import { IDEMPOTENCY_COLLECTION } from './idempotency-queries.js'
import { INDEX_BUILD } from './mongo-options.js'
import { CREATE_ID_INDEX, PETS_COLLECTION, STATUS_INDEX } from './pet-queries.js'
import { RATE_LIMITS_COLLECTION } from './rate-limit-queries.js'
import { toStoreError } from './store-error.js'

/**
 * Creates every index of the shared collections, each without a time limit (see INDEX_BUILD). On
 * `pets`, lists by status and one pet per create id; on the others a TTL index, by which MongoDB
 * deletes a document once its `expiresAt` has passed (its TTL monitor runs about every minute).
 */
export const ensureSharedIndexes = async (db: Db): Promise<void> => {
  const pets = db.collection(PETS_COLLECTION, INDEX_BUILD)
  await pets.createIndex(STATUS_INDEX.key, { name: STATUS_INDEX.name })
  const { key, ...createId } = CREATE_ID_INDEX
  await pets.createIndex(key, createId)
  for (const collection of [IDEMPOTENCY_COLLECTION, RATE_LIMITS_COLLECTION]) {
    await db.collection(collection, INDEX_BUILD).createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 })
  }
}

/** The pause after `failures` failed builds in a row: doubling from 250 ms, at most 10 s. */
export const retryDelayMs = (failures: number): number => Math.min(250 * 2 ** (failures - 1), 10_000)

const NOT_BUILT = 'the indexes are not built yet, and creates wait for them (createId_1 makes a retried create exactly-once)'

export interface SharedIndexes {
  /** Whether every index exists, built by this start. */
  readonly built: () => boolean
  /**
   * Why what needs the indexes is refused meanwhile: 503 while they are being built or the last
   * attempt failed for a while, 500 when it failed for a reason someone must fix (see store-error.ts).
   */
  readonly refusal: () => StoreError
  /** Settles when the builds end: every index built, or stopped first. Never rejects. */
  readonly finished: Promise<void>
  /** Stops the builds, at close: no attempt starts after it, and the pause between attempts ends, its timer cleared. */
  readonly stop: () => void
}

/**
 * Builds every index once per start, in the background: an attempt with no time limit, retried
 * after a capped pause until it succeeds or `stop` is called. A failed attempt is tried again in
 * full: createIndex of an index that exists returns at once, and one whose build is running on the
 * server (another instance's, or an earlier attempt's) waits for that build (mongodb/mongo jstests/
 * noPassthroughWithMongod/create_indexes_waits_for_already_in_progress.js). An attempt running at
 * `stop` ends when its client closes (the driver interrupts the connections in use:
 * closeCheckedOutConnections in mongo_client.ts).
 */
export const buildSharedIndexes = (database: () => Promise<Db>): SharedIndexes => {
  const stopping = new AbortController()
  let built = false
  let lastFailure: unknown
  const run = async (): Promise<void> => {
    let failures = 0
    while (!stopping.signal.aborted) {
      try {
        await ensureSharedIndexes(await database())
        built = true
        return
      } catch (error) {
        lastFailure = error
        failures += 1
        await pause(retryDelayMs(failures), undefined, { signal: stopping.signal }).catch(() => undefined)
      }
    }
  }
  return {
    built: () => built,
    refusal: () =>
      lastFailure === undefined
        ? storeUnavailable(`${NOT_BUILT}: the first build is running`)
        : toStoreError(`${NOT_BUILT}; the last attempt failed`)(lastFailure),
    finished: run(),
    stop: () => stopping.abort(),
  }
}
