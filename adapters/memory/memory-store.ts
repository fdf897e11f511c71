import * as TE from 'fp-ts/TaskEither'
import type { IdempotencyTimes } from '../../src/domain/idempotency-store.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { SandboxSpace } from '../../src/ports/sandboxes.js'
import type { Store, StorePorts } from '../../src/ports/store.js'
import { memoryIdempotencyStore } from './memory-idempotency-store.js'
import { memoryPetRepository } from './memory-pet-repository.js'
import { memoryRateLimitCounter } from './memory-rate-limit-counter.js'

/**
 * Everything the service stores, in process memory: the shared data set and one per sandbox until it
 * is dropped, each starting from `seed`. A reset replaces a sandbox's ports with fresh ones in one
 * step, so a request that began before it keeps the old ports to its end and one that begins after
 * sees only the new: never a mix, and what a create in flight writes lands in the discarded set.
 */
export const memoryStore = (
  seed: ReadonlyArray<PetDraft> = [],
  times: IdempotencyTimes = {},
): Store & { readonly sandboxes: SandboxSpace & { readonly size: () => number } } => {
  const fresh = (): StorePorts => ({ pets: memoryPetRepository(seed), idempotency: memoryIdempotencyStore(times) })
  const shared = fresh()
  const sandboxes = new Map<string, StorePorts>()
  const open = (sandbox: string): StorePorts => {
    const ports = sandboxes.get(sandbox) ?? fresh()
    sandboxes.set(sandbox, ports)
    return ports
  }
  return {
    shared,
    // A new process's memory is empty: the seed was applied when `shared` was made.
    seed: () => TE.right({ kind: 'seeded', count: seed.length } as const),
    sandboxes: {
      open: (sandbox: string) => TE.right(open(sandbox)),
      reset: (sandbox: string) => TE.right(void sandboxes.set(sandbox, fresh())),
      drop: (sandbox: string) => TE.right(void sandboxes.delete(sandbox)),
      // How many sandboxes this process holds: what stays bounded as sandboxes are made and ended.
      size: () => sandboxes.size,
    },
    rateLimits: memoryRateLimitCounter(),
    // Memory is always there.
    ready: () => TE.right(undefined),
    close: async (): Promise<void> => undefined,
  }
}
