import * as TE from 'fp-ts/TaskEither'
import { type Clock, realClock } from '../../src/domain/clock.js'
import { quotaOfScope, quotaScope, type RateLimitCounter } from '../../src/store/rate-limit-counter.js'

interface MemoryRateLimitOptions {
  /** The clock each scope's windows are aligned on: its data set's own, which its client moves; the real one by default. */
  readonly clockOf?: (scope: string) => Clock
}

/** One scope's count, in the window it was last hit in. */
interface Count {
  readonly windowMs: number
  readonly index: number
  readonly count: number
}

/** The fewest counts held before any is swept: a few clients cost no sweep at all. */
const MIN_SWEEP_SIZE = 64

/**
 * The RateLimitCounter port in process memory: one count per scope, per instance, in the windows
 * of that scope's clock (so each data set counts on its own clock, however far it was moved). A
 * count whose window has ended is dropped once the counts held have doubled since the last sweep:
 * a clock only moves forward, so an ended window never comes back, and memory stays bounded by
 * twice the clients active in one window (at least MIN_SWEEP_SIZE), at a constant cost per hit
 * on average.
 */
export const memoryRateLimitCounter = ({ clockOf = () => realClock }: MemoryRateLimitOptions = {}): RateLimitCounter & {
  /** How many counts are held: what stays bounded as clients come and go. */
  readonly size: () => number
  /**
   * Drops every count of a scope, in its main quota and in each of its own (quotaScope): a data set
   * dropped takes them with it. A count on a clock moved far ahead would otherwise stay until
   * real time reached its window's end.
   */
  readonly forget: (scope: string) => void
} => {
  const counts = new Map<string, Count>()
  /** The names of the quotas of their own counted so far: a handful, whatever the clients. */
  const quotas = new Set<string>()
  let sweepAt = MIN_SWEEP_SIZE
  const sweep = (): void => {
    for (const [scope, { windowMs, index }] of counts) {
      if (clockOf(scope).now() >= (index + 1) * windowMs) counts.delete(scope)
    }
    sweepAt = Math.max(MIN_SWEEP_SIZE, 2 * counts.size)
  }
  return {
    hit: (scope, windowMs) => {
      if (counts.size >= sweepAt) sweep()
      const quota = quotaOfScope(scope)
      if (quota !== undefined) quotas.add(quota)
      const time = clockOf(scope).now()
      const index = Math.floor(time / windowMs)
      const held = counts.get(scope)
      const count = held !== undefined && held.windowMs === windowMs && held.index === index ? held.count + 1 : 1
      counts.set(scope, { windowMs, index, count })
      return TE.right({ count, resetMs: (index + 1) * windowMs - time })
    },
    size: () => counts.size,
    forget: (scope) => {
      counts.delete(scope)
      for (const quota of quotas) counts.delete(quotaScope(scope, quota))
    },
  }
}
