import * as TE from 'fp-ts/TaskEither'
import type { RateLimitCounter } from '../../src/ports/rate-limit-counter.js'

/**
 * The RateLimitCounter port in process memory: one count per scope in the current window, per
 * instance. Windows are aligned on the clock, so every count starts again at once and the map is
 * replaced: memory stays bounded by the clients active in one window.
 */
export const memoryRateLimitCounter = ({ now = Date.now }: { readonly now?: () => number } = {}): RateLimitCounter => {
  let current = ''
  let counts = new Map<string, number>()
  return {
    hit: (scope, windowMs) => {
      const time = now()
      const index = Math.floor(time / windowMs)
      const window = `${windowMs}:${index}`
      if (window !== current) {
        current = window
        counts = new Map()
      }
      const count = (counts.get(scope) ?? 0) + 1
      counts.set(scope, count)
      return TE.right({ count, resetMs: (index + 1) * windowMs - time })
    },
  }
}
