import type { PetDocument } from './pet-document.js'

/** Documents for the idempotency records, built from validated values only (see pet-queries.ts). */

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys'

/** MongoDB deletes a record once its `expiresAt` has passed (the TTL monitor runs about every minute). */
export const EXPIRY_INDEX = { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 } as const

export interface IdempotencyDocument {
  readonly _id: string
  /** Who holds the claim: only its holder may complete or release it. */
  readonly token: string
  readonly fingerprint: string
  readonly pet?: PetDocument
  readonly expiresAt: Date
}

export const claimDocument = (scope: string, token: string, fingerprint: string, expiresAt: Date): IdempotencyDocument => ({
  _id: scope,
  token,
  fingerprint,
  expiresAt,
})

/** Matches a record whose time is up, which the TTL monitor may not have deleted yet. */
export const expiredFilter = (scope: string, now: Date) => ({ _id: scope, expiresAt: { $lte: now } })

export const takeOverUpdate = (token: string, fingerprint: string, expiresAt: Date) => ({
  $set: { token, fingerprint, expiresAt },
  $unset: { pet: '' as const },
})

/** The claim as long as `token` holds it. */
export const heldFilter = (scope: string, token: string) => ({ _id: scope, token })

export const completeUpdate = (fingerprint: string, pet: PetDocument, expiresAt: Date) => ({ $set: { fingerprint, pet, expiresAt } })

/** Only the holder's claim still in progress is released; a completed record is never forgotten early. */
export const releaseFilter = (scope: string, token: string) => ({ _id: scope, token, pet: { $exists: false } })
