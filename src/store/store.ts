import type * as TE from 'fp-ts/TaskEither'
import type { StoreError } from '../domain/errors.js'
import type { RateLimitCounter } from './rate-limit-counter.js'
import type { DataSets } from './data-sets.js'
import type { StorePorts } from './store-ports.js'

/**
 * What seeding the shared data set found: empty or seeded in part (by this start, one racing it, or
 * one that stopped mid-seed), now seeded; or holding pets, left alone.
 */
export type SeedOutcome = { readonly kind: 'seeded'; readonly count: number } | { readonly kind: 'not-empty' }

/** Where a store reports what it does in the background (its index builds on MongoDB): the service's log. */
export type StoreLog = (level: 'info' | 'warn' | 'error', message: string) => void

/**
 * The storage port as a whole, what each storage adapter (memory, MongoDB) provides and the
 * composition root wires: the data sets, their seed, the rate-limit counts, readiness and shutdown.
 */
export interface Store {
  /** The one data set every key shares, unless a driver gives a key one of `dataSets`. */
  readonly shared: StorePorts
  /** Applies the seed to the shared data set if it never held a pet; exactly once across instances. */
  readonly seed: () => TE.TaskEither<StoreError, SeedOutcome>
  /** Data sets apart from the shared one, by name; only the embedded store has them (the test target's sandboxes). */
  readonly dataSets?: DataSets
  /**
   * The rate-limit counts of every client: shared by the instances that share the store when it
   * is shared (so one limit holds across them), per instance when it is not.
   */
  readonly rateLimits: RateLimitCounter
  /** Whether the store can serve requests now (/readyz), within a bounded time. */
  readonly ready: () => TE.TaskEither<StoreError, void>
  /** Called once, on shutdown, after the requests in flight are answered. */
  readonly close: () => Promise<void>
}
