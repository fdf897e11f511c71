import type { PetDocument } from './pet-document.js'
import { serverTime } from './server-clock.js'

/**
 * Documents for the idempotency records, built from validated values only (see pet-queries.ts).
 * Every time is the server's (`$$NOW`, in aggregation-pipeline updates), never an instance's
 * clock: the TTL monitor that deletes records reads the server's clock too, so a claim expires at
 * one moment for every instance, however far their clocks drift. Values from the caller go into a
 * pipeline only inside `$literal`, so that a pet named `$pet` or `$$NOW` stays a name.
 */

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys'

export interface IdempotencyDocument {
  readonly _id: string
  /** Who holds the claim: only its holder may complete or release it. */
  readonly token: string
  readonly fingerprint: string
  readonly pet?: PetDocument
  readonly expiresAt: Date
}

/** The record's holder, if any, has had its time: nobody holds it, or its `expiresAt` has passed. */
const isFree = (offsetMs: number) => ({
  $or: [{ $eq: [{ $type: '$expiresAt' }, 'missing'] }, { $lte: ['$expiresAt', serverTime(offsetMs)] }],
})

export const byScope = (scope: string): { readonly _id: string } => ({ _id: scope })

/**
 * Claims `scope` for `token` in one atomic update, upserted: when the record is missing or its time
 * is up (a lease that ran out, a completed record past its lifetime), it becomes a fresh claim that
 * holds until `leaseMs` after now; otherwise it is left exactly as it is. Whoever reads the record
 * back with its own token claimed it; anyone else reads what holds the scope. All the fields are
 * decided from the record as it was before the update (one `$set` stage), so they agree.
 */
export const claimUpdate = (token: string, fingerprint: string, leaseMs: number, offsetMs: number) => {
  const free = isFree(offsetMs)
  return [
    {
      $set: {
        token: { $cond: [free, { $literal: token }, '$token'] },
        fingerprint: { $cond: [free, { $literal: fingerprint }, '$fingerprint'] },
        pet: { $cond: [free, '$$REMOVE', '$pet'] },
        expiresAt: { $cond: [free, serverTime(offsetMs, leaseMs), '$expiresAt'] },
      },
    },
  ]
}

/** The claim as long as `token` holds it. */
export const heldFilter = (scope: string, token: string) => ({ _id: scope, token })

/** Records the created pet, answered for `recordTtlMs` from now. */
export const completeUpdate = (fingerprint: string, pet: PetDocument, recordTtlMs: number, offsetMs: number) => [
  { $set: { fingerprint: { $literal: fingerprint }, pet: { $literal: pet }, expiresAt: serverTime(offsetMs, recordTtlMs) } },
]

/** Only the holder's claim still in progress is released; a completed record is never forgotten early. */
export const releaseFilter = (scope: string, token: string) => ({ _id: scope, token, pet: { $exists: false } })
