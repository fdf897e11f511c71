import type { PetDocument } from './pet-document.js'
import { serverTime } from './server-clock.js'

/**
 * Documents for the idempotency records, built from validated values only (see pet-queries.ts),
 * every time on the server's clock (see server-clock.ts). Values from the caller go into a pipeline
 * only inside `$literal`, so that a pet named `$pet` or `$$NOW` stays a name.
 */

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys'

export interface IdempotencyDocument {
  readonly _id: string
  /** Who holds the claim: only its holder may complete it or end its lease. */
  readonly token: string
  readonly fingerprint: string
  /** What the pet is inserted under; kept by a claim that takes over one whose lease is over. */
  readonly createId: string
  readonly pet?: PetDocument
  /** Until when a claim in progress holds the scope: its lease, ended early by its holder's endLease. */
  readonly leaseEndsAt: Date
  /** When the TTL index deletes the record: a record lifetime after its claim, then after its completion. */
  readonly expiresAt: Date
}

const isMissing = (field: string) => ({ $eq: [{ $type: field }, 'missing'] })

/**
 * A claim in progress, within its lifetime, whose lease lapsed (ran out, or its holder ended it):
 * its insert may have stored a pet under its create id. A record written before leases had a field
 * of their own held its lease in `expiresAt`, so it is never lapsed, only past its lifetime once
 * its lease ended.
 */
const isLapsed = (offsetMs: number) => ({
  $and: [
    isMissing('$pet'),
    { $gt: ['$expiresAt', serverTime(offsetMs)] },
    { $lte: [{ $ifNull: ['$leaseEndsAt', '$expiresAt'] }, serverTime(offsetMs)] },
  ],
})

/**
 * The record's holder, if any, has had its time: nobody holds it, its lifetime passed, or its lease
 * lapsed and the claim is for the same body. Another body never takes over a lapsed claim: the pet
 * its create id may have stored is the first body's, so the key answers a mismatch.
 */
const isFree = (offsetMs: number, fingerprint: string) => ({
  $or: [
    isMissing('$expiresAt'),
    { $lte: ['$expiresAt', serverTime(offsetMs)] },
    { $and: [isLapsed(offsetMs), { $eq: ['$fingerprint', { $literal: fingerprint }] }] },
  ],
})

interface ClaimTimes {
  readonly leaseMs: number
  readonly recordTtlMs: number
  readonly offsetMs: number
}

/**
 * Claims `scope` for `token` in one atomic update, upserted: a free record (see isFree) becomes a
 * fresh claim that holds until `leaseMs` after now and is kept for a record lifetime; otherwise it
 * is left exactly as it is. A claim that takes over a lapsed lease keeps its create id; any other
 * gets `createId`. Whoever reads the record back with its own token claimed it. All the fields are
 * decided from the record as it was before the update (one `$set` stage), so they agree.
 */
export const claimUpdate = (token: string, fingerprint: string, createId: string, { leaseMs, recordTtlMs, offsetMs }: ClaimTimes) => {
  const free = isFree(offsetMs, fingerprint)
  const newId = { $literal: createId }
  return [
    {
      $set: {
        token: { $cond: [free, { $literal: token }, '$token'] },
        fingerprint: { $cond: [free, { $literal: fingerprint }, '$fingerprint'] },
        createId: { $cond: [free, { $cond: [isLapsed(offsetMs), { $ifNull: ['$createId', newId] }, newId] }, '$createId'] },
        pet: { $cond: [free, '$$REMOVE', '$pet'] },
        leaseEndsAt: { $cond: [free, serverTime(offsetMs, leaseMs), '$leaseEndsAt'] },
        expiresAt: { $cond: [free, serverTime(offsetMs, recordTtlMs), '$expiresAt'] },
      },
    },
  ]
}

/** The record as long as it carries the claim's create id, whoever holds that claim now. */
export const createIdFilter = (scope: string, createId: string) => ({ _id: scope, createId })

/** Records the created pet, answered for `recordTtlMs` from now. */
export const completeUpdate = (fingerprint: string, pet: PetDocument, recordTtlMs: number, offsetMs: number) => [
  { $set: { fingerprint: { $literal: fingerprint }, pet: { $literal: pet }, expiresAt: serverTime(offsetMs, recordTtlMs) } },
]

/** The claim as long as `token` holds it and it is in progress: a completed record is never touched. */
export const inProgressFilter = (scope: string, token: string) => ({ _id: scope, token, pet: { $exists: false } })

/**
 * Ends the lease; the claim, its fingerprint and its create id stay. The end is dated the epoch,
 * before any clock's now, so that the same body takes the claim over at once (see isLapsed), even
 * on a member whose clock is behind after a failover, or under a test's offset.
 */
export const endLeaseUpdate = { $set: { leaseEndsAt: new Date(0) } }
