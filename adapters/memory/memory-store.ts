import * as TE from 'fp-ts/TaskEither'
import { type Clock, realClock } from '../../src/domain/clock.js'
import type { IdempotencyTimes } from '../../src/domain/idempotency-store.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { DataSetClock, DataSets } from '../../src/store/data-sets.js'
import { meter } from '../../src/store/meter.js'
import type { Store } from '../../src/store/store.js'
import type { StorePorts } from '../../src/store/store-ports.js'
import { memoryIdempotencyStore } from './memory-idempotency-store.js'
import { memoryPetRepository } from './memory-pet-repository.js'
import { memoryRateLimitCounter } from './memory-rate-limit-counter.js'

/**
 * Everything the service stores, in process memory: the shared data set and the named ones
 * (DataSets) until each is dropped, each starting from `seed`. A reset replaces a named data set's
 * ports with fresh ones in one step, so a request that began before it keeps the old ports to its
 * end and one that begins after sees only the new: never a mix, and what a create in flight writes
 * lands in the discarded set.
 *
 * Everything reads `times.clock` (the real one unless a test passes another), a named data set's
 * idempotency records and the rate-limit counts of a scope as far ahead of it as the data set of
 * that name was advanced: a scope that names no data set, or one never advanced, reads it as is.
 *
 * Each named data set's pets created and Idempotency-Key records share `dataSetBytes`, when given:
 * a create they have no room for fails with StoreFull, and a reset frees them. The shared data set
 * has no such bound. A data set dropped takes all it held with it, its rate-limit counts too.
 */
export const memoryStore = (
  seed: ReadonlyArray<PetDraft> = [],
  times: IdempotencyTimes = {},
  dataSetBytes?: number,
): Store & {
  readonly dataSets: DataSets & { readonly size: () => number }
  readonly rateLimits: ReturnType<typeof memoryRateLimitCounter>
} => {
  const base = times.clock ?? realClock
  /** How far each data set's clock was advanced since it was made or last reset; absent: not at all. */
  const advanced = new Map<string, number>()
  /**
   * The clock of each named data set held, made once with it: each request of it may ask for its
   * clock (its rate limit counts by it). A name no data set holds gets one made for the call,
   * so that nothing is kept for a data set dropped while a request of it was on its way.
   */
  const clocks = new Map<string, DataSetClock>()
  const clockOf = (name: string): DataSetClock =>
    clocks.get(name) ?? {
      now: () => base.now() + (advanced.get(name) ?? 0),
      advancedMs: () => advanced.get(name) ?? 0,
    }
  const shared: StorePorts = { pets: memoryPetRepository(seed), idempotency: memoryIdempotencyStore({ ...times, clock: base }) }
  /** A named data set as it starts, with its bound. */
  const fresh = (clock: Clock): StorePorts => {
    const budget = dataSetBytes === undefined ? undefined : meter(dataSetBytes)
    return {
      pets: memoryPetRepository(seed, budget),
      idempotency: memoryIdempotencyStore({ ...times, clock, ...(budget === undefined ? {} : { budget }) }),
    }
  }
  const named = new Map<string, StorePorts>()
  const rateLimits = memoryRateLimitCounter({ clockOf })
  /** Holds a named data set as it starts, with its clock. */
  const start = (name: string): StorePorts => {
    const clock = clockOf(name)
    const ports = fresh(clock)
    clocks.set(name, clock)
    named.set(name, ports)
    return ports
  }
  const open = (name: string): StorePorts => named.get(name) ?? start(name)
  return {
    shared,
    // A new process's memory is empty: the seed was applied when `shared` was made.
    seed: () => TE.right({ kind: 'seeded', count: seed.length } as const),
    dataSets: {
      open: (name: string) => TE.right(open(name)),
      reset: (name: string) =>
        TE.fromIO(() => {
          advanced.delete(name)
          start(name)
        }),
      drop: (name: string) =>
        TE.fromIO(() => {
          advanced.delete(name)
          named.delete(name)
          clocks.delete(name)
          rateLimits.forget(name)
        }),
      clock: clockOf,
      advance: (name: string, ms: number) => TE.fromIO(() => void advanced.set(name, (advanced.get(name) ?? 0) + ms)),
      // How many data sets this process holds: what stays bounded as they are made and dropped.
      size: () => new Set([...named.keys(), ...advanced.keys()]).size,
    },
    rateLimits,
    // Memory is always there.
    ready: () => TE.right(undefined),
    close: async (): Promise<void> => undefined,
  }
}
