import type * as TE from 'fp-ts/TaskEither'
import type { Clock } from './clock.js'
import type { StoreError } from './errors.js'
import type { Pet } from './pet.js'

/** How long a completed create is remembered: a retry within a day gets the original answer. */
export const DEFAULT_RECORD_TTL_MS = 24 * 60 * 60 * 1000
/** How long a claim in progress holds its key before another request may take it over (a crash). */
export const DEFAULT_LEASE_MS = 30 * 1000

/**
 * The times every adapter honours. `clock` is the clock of an adapter that keeps its own (memory):
 * the real one unless a test or a client moves it (a data set's clock); a shared store decides expiry
 * by its server's clock, never an instance's.
 */
export interface IdempotencyTimes {
  readonly recordTtlMs?: number
  readonly leaseMs?: number
  readonly clock?: Clock
}

/** What holds an idempotency key when a create claims it. */
export type IdempotencyClaim =
  /**
   * Nobody did, or its holder's lease is over and this claim is for the same body: the caller now
   * holds it, and must complete it with its create id or end its lease with this token. The pet
   * is inserted under `createId`, which a claim taking over the same body's claim keeps, so that a
   * pet an earlier holder may have stored is found, never made twice.
   */
  | { readonly kind: 'claimed'; readonly token: string; readonly createId: string }
  /** A create with this key finished; its pet and the fingerprint of its body. */
  | { readonly kind: 'completed'; readonly fingerprint: string; readonly pet: Pet }
  /** A create with this key is still being processed. */
  | { readonly kind: 'in_progress'; readonly fingerprint: string }

/**
 * The idempotency port (draft-ietf-httpapi-idempotency-key-header). Every adapter must pass
 * test/ports/idempotency-store.contract.ts:
 * - claim is atomic: of any number of concurrent claims of one scope, across every instance sharing
 *   the store, exactly one is answered `claimed`;
 * - a completed record answers `completed` with its pet until it expires (the adapter's record
 *   lifetime, 24 h by default), then the scope can be claimed afresh;
 * - a claim in progress whose lease is over (it ran out: a crashed instance; or its holder ended
 *   it: a create that failed) can be claimed again with the same fingerprint, so a key is never
 *   stuck; the new claim carries the `createId` of the one it took over, and a claim of a scope
 *   nobody held (or whose record expired) a new one. Another fingerprint gets `in_progress` with
 *   the first one's until the record expires: the pet the first claim's create id may have stored
 *   is the first body's;
 * - endLease ends the lease of a claim still in progress at once, keeping its fingerprint and its
 *   create id: a create that failed, whatever it may have stored, is retried at once with the same
 *   key and body, and the create id makes that retry answer the pet if one was stored. endLease
 *   acts only for the holder of the claim's token, so a request that outlived its lease cannot
 *   end the claim another request took over; a completed record is never touched by endLease;
 * - a claim that fails ends the lease of any claim it may have made (the store may have applied a
 *   claim whose answer was lost, and the caller has no token to end it with), as far as the store
 *   can still be written: a client's retry is not refused for a whole lease by a claim nobody holds;
 * - complete records `pet` as the answer of the claim whose create id is `createId`, whoever holds
 *   that claim now: a request whose lease ran out and whose claim another took over inserted under
 *   the same create id, so it stored (or found) the same pet, which is the pet the key answers, and
 *   its create answers it too. complete fails with StoreFailed when the record no longer carries
 *   that create id (it expired, and the scope was claimed afresh): the pet is then not the one the
 *   key answers with, which an operator must hear of, and the create must not answer 201;
 * - expiry (of leases and records) is decided by one clock for every instance sharing the store;
 * - a call's task does its work each time it is run and none when it is made, and every call may
 *   fail with StoreUnavailable or StoreFailed, as PetRepository's calls do.
 */
export interface IdempotencyStore {
  readonly claim: (scope: string, fingerprint: string) => TE.TaskEither<StoreError, IdempotencyClaim>
  readonly complete: (scope: string, createId: string, fingerprint: string, pet: Pet) => TE.TaskEither<StoreError, void>
  readonly endLease: (scope: string, token: string) => TE.TaskEither<StoreError, void>
}
