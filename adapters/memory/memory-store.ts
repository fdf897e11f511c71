import * as TE from 'fp-ts/TaskEither'
import { type Clock, realClock } from '../../src/domain/clock.js'
import type { IdempotencyTimes } from '../../src/domain/idempotency-store.js'
import type { PetDraft } from '../../src/domain/pet.js'
import { DEFAULT_SANDBOX_BUDGET, meter } from '../../src/wiring/sandbox-budget.js'
import type { SandboxClock, SandboxSpace } from '../../src/wiring/sandboxes.js'
import type { Store } from '../../src/wiring/store.js'
import type { StorePorts } from '../../src/wiring/store-ports.js'
import { memoryIdempotencyStore } from './memory-idempotency-store.js'
import { memoryPetRepository } from './memory-pet-repository.js'
import { memoryRateLimitCounter } from './memory-rate-limit-counter.js'

/**
 * Everything the service stores, in process memory: the shared data set and one per sandbox until it
 * is dropped, each starting from `seed`. A reset replaces a sandbox's ports with fresh ones in one
 * step, so a request that began before it keeps the old ports to its end and one that begins after
 * sees only the new: never a mix, and what a create in flight writes lands in the discarded set.
 *
 * Everything reads `times.clock` (the real one unless a test passes another), a sandbox's idempotency
 * records and the rate-limit counts of a scope as far ahead of it as the sandbox of that name
 * was advanced: a scope that is no sandbox's, or whose sandbox was never advanced, reads it as is.
 *
 * Each sandbox's pets created and Idempotency-Key records share its `sandboxStoreBytes` (the store's
 * part of its budget, src/wiring/sandbox-budget.ts): a create they have no room for fails with
 * StoreFull, and a reset frees them. The shared data set has no such bound. A sandbox dropped
 * takes all it held with it, its rate-limit counts too.
 */
export const memoryStore = (
  seed: ReadonlyArray<PetDraft> = [],
  times: IdempotencyTimes = {},
  sandboxStoreBytes: number = DEFAULT_SANDBOX_BUDGET.storeBytes,
): Store & {
  readonly sandboxes: SandboxSpace & { readonly size: () => number }
  readonly rateLimits: ReturnType<typeof memoryRateLimitCounter>
} => {
  const base = times.clock ?? realClock
  /** How far each sandbox's clock was advanced since it was made or last reset; absent: not at all. */
  const advanced = new Map<string, number>()
  const clockOf = (sandbox: string): SandboxClock => ({
    now: () => base.now() + (advanced.get(sandbox) ?? 0),
    advancedMs: () => advanced.get(sandbox) ?? 0,
  })
  const shared: StorePorts = { pets: memoryPetRepository(seed), idempotency: memoryIdempotencyStore({ ...times, clock: base }) }
  /** A sandbox's data set as it starts, with its budget. */
  const fresh = (clock: Clock): StorePorts => {
    const budget = meter(sandboxStoreBytes)
    return { pets: memoryPetRepository(seed, budget), idempotency: memoryIdempotencyStore({ ...times, clock, budget }) }
  }
  const sandboxes = new Map<string, StorePorts>()
  const rateLimits = memoryRateLimitCounter({ clockOf })
  const open = (sandbox: string): StorePorts => {
    const ports = sandboxes.get(sandbox) ?? fresh(clockOf(sandbox))
    sandboxes.set(sandbox, ports)
    return ports
  }
  return {
    shared,
    // A new process's memory is empty: the seed was applied when `shared` was made.
    seed: () => TE.right({ kind: 'seeded', count: seed.length } as const),
    sandboxes: {
      open: (sandbox: string) => TE.right(open(sandbox)),
      reset: (sandbox: string) =>
        TE.fromIO(() => {
          advanced.delete(sandbox)
          sandboxes.set(sandbox, fresh(clockOf(sandbox)))
        }),
      drop: (sandbox: string) =>
        TE.fromIO(() => {
          advanced.delete(sandbox)
          sandboxes.delete(sandbox)
          rateLimits.forget(sandbox)
        }),
      clock: clockOf,
      advance: (sandbox: string, ms: number) => TE.fromIO(() => void advanced.set(sandbox, (advanced.get(sandbox) ?? 0) + ms)),
      // How many sandboxes this process holds: what stays bounded as sandboxes are made and ended.
      size: () => new Set([...sandboxes.keys(), ...advanced.keys()]).size,
    },
    rateLimits,
    // Memory is always there.
    ready: () => TE.right(undefined),
    close: async (): Promise<void> => undefined,
  }
}
