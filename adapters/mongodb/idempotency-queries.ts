import type { PetDocument } from './pet-document.js'

/** Documents for the idempotency records, built from validated values only (see pet-queries.ts). */

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys'

/** MongoDB deletes a record once its `expiresAt` has passed (the TTL monitor runs about every minute). */
export const EXPIRY_INDEX = { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 } as const

export interface IdempotencyDocument {
  readonly _id: string
  readonly fingerprint: string
  readonly pet?: PetDocument
  readonly expiresAt: Date
}

export const claimDocument = (scope: string, fingerprint: string, expiresAt: Date): IdempotencyDocument => ({ _id: scope, fingerprint, expiresAt })

/** Matches a record whose time is up, which the TTL monitor may not have deleted yet. */
export const expiredFilter = (scope: string, now: Date) => ({ _id: scope, expiresAt: { $lte: now } })

export const takeOverUpdate = (fingerprint: string, expiresAt: Date) => ({ $set: { fingerprint, expiresAt }, $unset: { pet: '' as const } })

export const completeUpdate = (fingerprint: string, pet: PetDocument, expiresAt: Date) => ({ $set: { fingerprint, pet, expiresAt } })

/** Only a claim still in progress is released; a completed record is never forgotten early. */
export const releaseFilter = (scope: string) => ({ _id: scope, pet: { $exists: false } })
