import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/Either'
import * as TE from 'fp-ts/TaskEither'
import type { Collection } from 'mongodb'
import { storeFailed } from '../../src/domain/errors.js'
import type { IdempotencyClaim, IdempotencyStore } from '../../src/domain/idempotency-store.js'
import { DEFAULT_LEASE_MS, DEFAULT_RECORD_TTL_MS } from '../../src/domain/idempotency-store.js'
import type { Pet } from '../../src/domain/pet.js'
import { mongoCall } from './mongo-call.js'
import { collectionIn, type MongoAccess, serverBound, serverTime, upsertAfter } from './mongo-options.js'
import { fromDocument, type PetDocument, toDocument } from './pet-document.js'

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys'

/** A key's record (ADR 1405): the token, body and create id of its claim, its pet once completed, its lease's and its own end. */
export interface IdempotencyDocument {
  readonly _id: string
  readonly token: string
  readonly fingerprint: string
  readonly createId: string
  readonly pet?: PetDocument
  readonly leaseEndsAt: Date
  readonly expiresAt: Date
}

/** An ended lease: the epoch, before any clock's now (a member's whose clock is behind, a test's). */
const ENDED = new Date(0)
/** A caller's value enters a pipeline only as a literal: a pet named `$$NOW` stays a name. */
const literal = (value: string) => ({ $literal: value })
const isMissing = (field: string) => ({ $eq: [{ $type: field }, 'missing'] })

/** A claim in progress, within its lifetime, whose lease ran out or was ended. */
const isLapsed = (offsetMs: number) => ({
  $and: [isMissing('$pet'), { $gt: ['$expiresAt', serverTime(offsetMs)] }, { $lte: ['$leaseEndsAt', serverTime(offsetMs)] }],
})

/** A claim takes no record, an expired one, or a lapsed claim of the same body; never one with its own token (applied already). */
const takes = (offsetMs: number, fingerprint: string, token: string) => {
  const sameBodyLapsed = { $and: [isLapsed(offsetMs), { $eq: ['$fingerprint', literal(fingerprint)] }] }
  const takeable = { $or: [isMissing('$expiresAt'), { $lte: ['$expiresAt', serverTime(offsetMs)] }, sameBodyLapsed] }
  return { $and: [{ $ne: ['$token', literal(token)] }, takeable] }
}

type ClaimTimes = { readonly leaseMs: number; readonly recordTtlMs: number; readonly offsetMs: number }

/** A claim for `token` as one upserted update (ADR 1405); `withdrawn`: the same, its lease ended, after its call failed (ADR 1409). */
export const claimUpdate = (token: string, fingerprint: string, createId: string, times: ClaimTimes, withdrawn = false) => {
  const { leaseMs, recordTtlMs, offsetMs } = times
  const taken = takes(offsetMs, fingerprint, token)
  const fresh = (value: unknown, field: string) => ({ $cond: [taken, value, field] })
  const ended = { $cond: [{ $or: [taken, { $eq: ['$token', literal(token)] }] }, ENDED, '$leaseEndsAt'] }
  const keptId = { $cond: [isLapsed(offsetMs), { $ifNull: ['$createId', literal(createId)] }, literal(createId)] }
  const set = {
    token: fresh(literal(token), '$token'),
    fingerprint: fresh(literal(fingerprint), '$fingerprint'),
    createId: fresh(keptId, '$createId'),
    pet: fresh('$$REMOVE', '$pet'),
    leaseEndsAt: withdrawn ? ended : fresh(serverTime(offsetMs, leaseMs), '$leaseEndsAt'),
    expiresAt: fresh(serverTime(offsetMs, recordTtlMs), '$expiresAt'),
  }
  return [{ $set: set }]
}

/** Records the created pet, answered for `recordTtlMs` from now. */
export const completeUpdate = (fingerprint: string, pet: PetDocument, recordTtlMs: number, offsetMs: number) => [
  { $set: { fingerprint: literal(fingerprint), pet: { $literal: pet }, expiresAt: serverTime(offsetMs, recordTtlMs) } },
]

/** The claim while `token` holds it in progress; ending its lease keeps its fingerprint and create id for the same body. */
export const inProgressFilter = (scope: string, token: string) => ({ _id: scope, token, pet: { $exists: false } })
export const endLeaseUpdate = { $set: { leaseEndsAt: ENDED } }

/** What the record a claim returned says: claimed when it carries the claim's token, else held by another. */
const claimOf = (token: string, record: IdempotencyDocument | null): E.Either<string, IdempotencyClaim> => {
  if (record === null) return E.left('claim idempotency key: the claimed record was not returned')
  const { fingerprint, pet } = record
  if (record.token === token) return E.right({ kind: 'claimed', token, createId: record.createId })
  if (pet === undefined) return E.right({ kind: 'in_progress', fingerprint })
  return E.map((stored: Pet) => ({ kind: 'completed', fingerprint, pet: stored }) as const)(fromDocument(pet))
}

/** The times a MongoDB idempotency store honours, all the server's; `clockOffsetMs` moves its clock, for tests only. */
export type MongoIdempotencyTimes = { readonly recordTtlMs?: number; readonly leaseMs?: number; readonly clockOffsetMs?: () => number }

/** The IdempotencyStore port over a MongoDB collection keyed by scope: a claim is one upserted findOneAndUpdate. */
export const mongoIdempotencyStore = ({
  recordTtlMs = DEFAULT_RECORD_TTL_MS,
  leaseMs = DEFAULT_LEASE_MS,
  clockOffsetMs = () => 0,
  ...access
}: MongoAccess & MongoIdempotencyTimes): IdempotencyStore => {
  const bound = serverBound(access.timeoutMs)
  const update = (fingerprint: string, token: string, withdrawn = false) =>
    claimUpdate(token, fingerprint, randomUUID(), { leaseMs, recordTtlMs, offsetMs: clockOffsetMs() }, withdrawn)
  const call = <A>(operation: string, work: (records: Collection<IdempotencyDocument>) => Promise<A>, roundTrips = 1) =>
    mongoCall(access, operation, async () => work(await collectionIn<IdempotencyDocument>(access, IDEMPOTENCY_COLLECTION)), roundTrips)
  const expired = (id: number) =>
    `complete idempotency key: the record expired before pet ${id} was recorded; the key does not answer with this pet`
  return {
    claim: (scope, fingerprint) => async () => {
      const token = randomUUID()
      const claimed = await call(
        'claim idempotency key',
        (records) => records.findOneAndUpdate({ _id: scope }, update(fingerprint, token), upsertAfter(access.timeoutMs)),
        2,
      )()
      if (E.isRight(claimed)) return E.mapLeft(storeFailed)(claimOf(token, claimed.right))
      // Applied maybe, or yet to land (the driver retries a findAndModify once): withdrawn, best effort (ADR 1409).
      await call('withdraw idempotency claim', (records) =>
        records.updateOne({ _id: scope }, update(fingerprint, token, true), { ...bound, upsert: true }),
      )()
      return claimed
    },
    complete: (scope, createId, fingerprint, pet) => async () => {
      const completion = completeUpdate(fingerprint, toDocument(pet), recordTtlMs, clockOffsetMs())
      const result = await call('complete idempotency key', (records) => records.updateOne({ _id: scope, createId }, completion, bound))()
      return E.isRight(result) && result.right.matchedCount !== 1 ? E.left(storeFailed(expired(pet.id))) : E.asUnit(result)
    },
    endLease: (scope, token) =>
      TE.asUnit(call('end idempotency lease', (records) => records.updateOne(inProgressFilter(scope, token), endLeaseUpdate, bound))),
  }
}
