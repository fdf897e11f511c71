import type * as TE from 'fp-ts/TaskEither'
import type { Clock } from '../domain/clock.js'
import type { StoreError } from '../domain/errors.js'
import type { StorePorts } from './store-ports.js'

/** A data set's clock: real time plus every advance of the data set since it was made or last reset. */
export interface DataSetClock extends Clock {
  /** How far ahead of real time it runs: the sum of those advances. */
  readonly advancedMs: () => number
}

/**
 * Data sets apart from the shared one, each named by its user (a key's scope). Like every store
 * call, open, reset, drop and advance fail with StoreUnavailable or StoreFailed (see PetRepository).
 * Each starts from the seed the first time it is opened; reset puts it back there: its ids start
 * again, its idempotency records are gone and its clock reads real time again. Drop forgets it, so
 * that the store holds nothing more for it until it is opened again.
 *
 * Each data set has a clock, which everything time-dependent in it reads: its idempotency leases
 * and records, and its rate-limit windows (the store's counter counts a scope on the clock of the
 * data set of that name). `clock` answers it live: a reading follows every later advance and reset.
 * `advance` moves one data set's clock forward by `ms`, never back: it is given only `ms` >= 0.
 * test/ports/data-sets.contract.ts states the rest.
 */
export interface DataSets {
  readonly open: (name: string) => TE.TaskEither<StoreError, StorePorts>
  readonly reset: (name: string) => TE.TaskEither<StoreError, void>
  readonly drop: (name: string) => TE.TaskEither<StoreError, void>
  readonly clock: (name: string) => DataSetClock
  readonly advance: (name: string, ms: number) => TE.TaskEither<StoreError, void>
}
