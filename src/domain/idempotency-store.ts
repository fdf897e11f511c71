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
 * the real one unless a test moves it or the store is a sandbox's; a shared store decides expiry
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
   * Nobody did: the caller now holds it, and must complete or release it with this token. The pet is
   * inserted under `createId`: a claim that takes over a lapsed lease carries the create id of the
   * claim it took over, so that an insert whose outcome was unknown is found, never made twice.
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
 * - an `in_progress` claim that is neither completed nor released within the adapter's lease (a
 *   crashed instance, an insert whose outcome is unknown) can be claimed again with the same
 *   fingerprint, so a key is never stuck; the new claim carries the `createId` of the one it took
 *   over, and a claim of a scope nobody held (or that was released, or whose record expired) a new
 *   one. Another fingerprint gets `in_progress` with the first one's until the record expires;
 * - release forgets a claim still in progress, so that a create that failed can be retried with the
 *   same key; complete and release act only for the holder of the claim's token, so a request that
 *   outlived its lease can neither overwrite nor free the claim another request took over;
 * - complete fails with StoreFailed when the caller no longer holds the claim (its lease ran out and
 *   another request took the scope over, or the record expired): the pet it created is then not the
 *   one the key answers with, which an operator must hear of, and the create must not answer 201;
 * - expiry (of leases and records) is decided by one clock for every instance sharing the store;
 * - every call may fail with StoreUnavailable or StoreFailed, as PetRepository's calls do.
 */
export interface IdempotencyStore {
  readonly claim: (scope: string, fingerprint: string) => TE.TaskEither<StoreError, IdempotencyClaim>
  readonly complete: (scope: string, token: string, fingerprint: string, pet: Pet) => TE.TaskEither<StoreError, void>
  readonly release: (scope: string, token: string) => TE.TaskEither<StoreError, void>
}
