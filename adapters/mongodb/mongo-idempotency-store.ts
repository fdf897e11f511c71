import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as T from 'fp-ts/Task'
import * as TE from 'fp-ts/TaskEither'
import { type StoreError, storeFailed } from '../../src/domain/errors.js'
import {
  DEFAULT_LEASE_MS,
  DEFAULT_RECORD_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyStore,
} from '../../src/domain/idempotency-store.js'
import {
  claimUpdate,
  completeUpdate,
  endLeaseUpdate,
  createIdFilter,
  IDEMPOTENCY_COLLECTION,
  type IdempotencyDocument,
  inProgressFilter,
} from './idempotency-queries.js'
import { fromDocument, toDocument } from './pet-document.js'
import { mongoCall, upsertOnceMore } from './mongo-call.js'
import { accessOf, collectionIn, type MongoAdapterOptions, serverBound } from './mongo-options.js'
import { fromStored } from './store-error.js'

/**
 * The times a MongoDB idempotency store honours. There is no `now`: every time is the server's.
 * `clockOffsetMs` moves the server's clock as the store sees it, for tests only.
 */
export interface MongoIdempotencyTimes {
  readonly recordTtlMs?: number
  readonly leaseMs?: number
  readonly clockOffsetMs?: () => number
}

const held = (record: IdempotencyDocument): E.Either<string, IdempotencyClaim> =>
  record.pet === undefined
    ? E.right({ kind: 'in_progress', fingerprint: record.fingerprint })
    : pipe(
        fromDocument(record.pet),
        E.map((pet) => ({ kind: 'completed', fingerprint: record.fingerprint, pet })),
      )

/**
 * The IdempotencyStore port over a MongoDB collection keyed by scope. A claim is one atomic
 * findOneAndUpdate (see claimUpdate): one round trip to the primary, and no read that could lag.
 */
export const mongoIdempotencyStore = ({
  recordTtlMs = DEFAULT_RECORD_TTL_MS,
  leaseMs = DEFAULT_LEASE_MS,
  clockOffsetMs = () => 0,
  ...options
}: MongoAdapterOptions & MongoIdempotencyTimes): IdempotencyStore => {
  const access = accessOf(options)
  const bound = serverBound(access.timeoutMs)
  const records = () => collectionIn<IdempotencyDocument>(access, IDEMPOTENCY_COLLECTION)

  const claim = async (scope: string, fingerprint: string, token: string): Promise<E.Either<string, IdempotencyClaim>> => {
    const claims = await records()
    const record = await upsertOnceMore(() =>
      claims.findOneAndUpdate(
        { _id: scope },
        claimUpdate(token, fingerprint, randomUUID(), { leaseMs, recordTtlMs, offsetMs: clockOffsetMs() }),
        { ...bound, upsert: true, returnDocument: 'after' },
      ),
    )
    if (record === null) throw new Error('the claimed record was not returned')
    return record.token === token ? E.right({ kind: 'claimed', token, createId: record.createId }) : held(record)
  }

  const endLease = (scope: string, token: string): TE.TaskEither<StoreError, void> =>
    mongoCall(access, 'end idempotency lease', async () => {
      await (await records()).updateOne(inProgressFilter(scope, token), endLeaseUpdate, bound)
    })

  /**
   * A failed claim may have been applied all the same: its answer lost, or the driver's retry
   * failing after a first attempt that was applied (findAndModify is a retryable write, driver
   * src/operations/find_and_modify.ts; execute_operation.ts answers the retry's error). Only this
   * adapter knows the token, so it ends that lease, best effort, lest the client's retries get 409
   * for a lease; a claim that lands after the call gave up keeps its lease until it runs out.
   */
  const claimAs = (scope: string, fingerprint: string, token: string) =>
    pipe(
      mongoCall(access, 'claim idempotency key', () => claim(scope, fingerprint, token), 2),
      TE.orElseW((error) =>
        pipe(
          endLease(scope, token),
          T.map(() => E.left(error)),
        ),
      ),
    )

  return {
    // A token of its own each time the claim runs.
    claim: (scope, fingerprint) =>
      pipe(
        TE.fromIO(randomUUID),
        TE.flatMap((token) => claimAs(scope, fingerprint, token)),
        TE.flatMap(fromStored),
      ),
    complete: (scope, createId, fingerprint, pet) =>
      pipe(
        mongoCall(access, 'complete idempotency key', async () =>
          (await records()).updateOne(
            createIdFilter(scope, createId),
            completeUpdate(fingerprint, toDocument(pet), recordTtlMs, clockOffsetMs()),
            bound,
          ),
        ),
        TE.flatMap((result) =>
          result.matchedCount === 1
            ? TE.right(undefined)
            : TE.left(
                storeFailed(
                  `complete idempotency key: the record expired before pet ${pet.id} was recorded; ` +
                    'the key does not answer with this pet',
                ),
              ),
        ),
      ),
    endLease,
  }
}
