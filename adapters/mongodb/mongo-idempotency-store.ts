import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { type Db, MongoServerError, type WriteConcernSettings } from 'mongodb'
import {
  DEFAULT_LEASE_MS,
  DEFAULT_RECORD_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyStore,
  type IdempotencyTimes,
} from '../../src/domain/idempotency-store.js'
import {
  claimDocument,
  completeUpdate,
  EXPIRY_INDEX,
  expiredFilter,
  heldFilter,
  IDEMPOTENCY_COLLECTION,
  type IdempotencyDocument,
  releaseFilter,
  takeOverUpdate,
} from './idempotency-queries.js'
import { fromDocument, toDocument } from './pet-document.js'
import { mongoCall } from './mongo-call.js'
import { collectionIn, DEFAULT_TIMEOUT_MS, type MongoAccess } from './mongo-options.js'
import { fromStored } from './store-error.js'

const DUPLICATE_KEY = 11000

/** The times a MongoDB idempotency store honours. */
export type MongoIdempotencyTimes = IdempotencyTimes

export interface MongoIdempotencyStoreOptions extends MongoIdempotencyTimes {
  readonly database: () => Promise<Db>
  readonly writeConcern?: WriteConcernSettings
  /** The bound on each round trip (PETSTORE_MONGODB_TIMEOUT_MS); 2 s by default. */
  readonly timeoutMs?: number
  /** The shared `idempotency_keys` unless a sandbox's collection is given. */
  readonly collection?: string
}

/** Creates the TTL index that deletes expired records; idempotent like every createIndex. */
export const ensureIdempotencyIndexes = async (db: Db, collection: string = IDEMPOTENCY_COLLECTION): Promise<void> => {
  await db
    .collection(collection)
    .createIndex(EXPIRY_INDEX.key, { name: EXPIRY_INDEX.name, expireAfterSeconds: EXPIRY_INDEX.expireAfterSeconds })
}

const held = (record: IdempotencyDocument): E.Either<string, IdempotencyClaim> =>
  record.pet === undefined
    ? E.right({ kind: 'in_progress', fingerprint: record.fingerprint })
    : pipe(
        fromDocument(record.pet),
        E.map((pet) => ({ kind: 'completed', fingerprint: record.fingerprint, pet })),
      )

/**
 * The IdempotencyStore port over a MongoDB collection keyed by scope. A claim is an insert, so the
 * unique `_id` makes it atomic across instances: of two racing claims, one inserts and the other
 * meets the duplicate key and reads what holds it. A record whose time is up is taken over with one
 * conditional update, also atomic; the TTL index deletes the rest eventually.
 */
export const mongoIdempotencyStore = ({
  database,
  writeConcern = { w: 'majority' },
  timeoutMs = DEFAULT_TIMEOUT_MS,
  recordTtlMs = DEFAULT_RECORD_TTL_MS,
  leaseMs = DEFAULT_LEASE_MS,
  now = Date.now,
  collection = IDEMPOTENCY_COLLECTION,
}: MongoIdempotencyStoreOptions): IdempotencyStore => {
  const access: MongoAccess = { database, writeConcern, timeoutMs }
  const records = () => collectionIn<IdempotencyDocument>(access, collection)

  const claim = async (scope: string, fingerprint: string): Promise<E.Either<string, IdempotencyClaim>> => {
    const time = now()
    const token = randomUUID()
    const collection = await records()
    try {
      await collection.insertOne(claimDocument(scope, token, fingerprint, new Date(time + leaseMs)))
      return E.right({ kind: 'claimed', token })
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error
    }
    const taken = await collection.findOneAndUpdate(
      expiredFilter(scope, new Date(time)),
      takeOverUpdate(token, fingerprint, new Date(time + leaseMs)),
    )
    if (taken !== null) return E.right({ kind: 'claimed', token })
    const existing = await collection.findOne({ _id: scope })
    // Deleted between the two reads (released, or by the TTL monitor): claim afresh.
    return existing === null ? claim(scope, fingerprint) : held(existing)
  }

  return {
    claim: (scope, fingerprint) =>
      pipe(
        mongoCall(access, 'claim idempotency key', () => claim(scope, fingerprint), 3),
        TE.flatMap(fromStored),
      ),
    complete: (scope, token, fingerprint, pet) =>
      mongoCall(access, 'complete idempotency key', async () => {
        await (
          await records()
        ).updateOne(heldFilter(scope, token), completeUpdate(fingerprint, toDocument(pet), new Date(now() + recordTtlMs)))
      }),
    release: (scope, token) =>
      mongoCall(access, 'release idempotency key', async () => {
        await (await records()).deleteOne(releaseFilter(scope, token))
      }),
  }
}
