import { memoryRateLimitCounter } from '../../adapters/memory/memory-rate-limit-counter.js'
import type { RateLimitCounter } from '../../src/store/rate-limit-counter.js'

/**
 * The memory rate-limit counter on a clock that stands still, half a minute into a window: every
 * request of a test is counted in that one window. On the real clock a window may end mid-test
 * (the longer a busy machine makes the test, the likelier), and the count starts again at 1. How
 * windows follow one another is the counter's contract (test/ports/rate-limit-counter.contract.ts).
 */
export const oneWindowCounter = (): RateLimitCounter => memoryRateLimitCounter({ clockOf: () => ({ now: () => 30_000 }) })
