import { AsyncLocalStorage } from 'node:async_hooks'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import type { StorePorts } from '../../src/store/store-ports.js'

/** The wait a request asked to happen before its pet is stored, for the work `withInsertDelay` runs. */
const pending = new AsyncLocalStorage<() => Promise<unknown>>()
/** How many creates are running under a delay. */
let running = 0

/**
 * Runs `work` (the rest of a create) so that its insert waits for `delay` first: after the
 * Idempotency-Key was claimed, so that a retry during the wait meets the claim (409), as it would
 * when a real create is slow. The use cases are untouched: the wait is in the ports they are given.
 */
export const withInsertDelay = async <A>(delay: () => Promise<unknown>, work: () => Promise<A>): Promise<A> => {
  running += 1
  try {
    return await pending.run(delay, work)
  } finally {
    running -= 1
    // Once enabled, the storage has Node 20 run an async hook for every promise of the process (an
    // await then cost 60% more): it is disabled again whenever no delayed create is running.
    if (running === 0) pending.disable()
  }
}

/** A data set's ports whose inserts honour the delay of the request they run for (see withInsertDelay). */
export const delayableInserts = (ports: StorePorts): StorePorts => ({
  ...ports,
  pets: {
    ...ports.pets,
    insert: (draft, createId) => {
      const delay = pending.getStore()
      return delay === undefined
        ? ports.pets.insert(draft, createId)
        : pipe(
            TE.fromTask(delay),
            TE.flatMap(() => ports.pets.insert(draft, createId)),
          )
    },
  },
})
