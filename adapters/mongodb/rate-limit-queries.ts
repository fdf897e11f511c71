import { serverTime } from './server-clock.js'

/** Documents for the rate-limit counters, one per client scope (see pet-queries.ts for the rules). */

export const RATE_LIMITS_COLLECTION = 'rate_limits'

export interface RateLimitDocument {
  readonly _id: string
  /** The window counted: the server's time in ms divided by the window's length, rounded down. */
  readonly window: number
  readonly count: number
  /** The server's time of the last hit, to tell the caller how long the window still runs. */
  readonly at: Date
  readonly expiresAt: Date
}

/**
 * Counts one hit in one atomic update, upserted: in the window the server's clock is in now, the
 * count goes up by one; in a later window (or with no counter yet) it starts again at 1. One
 * `$set` stage, so every field is decided from the counter as it was.
 */
export const hitUpdate = (windowMs: number, offsetMs: number) => {
  const now = serverTime(offsetMs)
  const window = { $floor: { $divide: [{ $toLong: now }, windowMs] } }
  return [
    {
      $set: {
        count: { $cond: [{ $eq: ['$window', window] }, { $add: ['$count', 1] }, 1] },
        window,
        at: now,
        expiresAt: { $toDate: { $multiply: [{ $add: [window, 1] }, windowMs] } },
      },
    },
  ]
}

/** What is left of the counter's window after its last hit. */
export const resetMsOf = (counter: RateLimitDocument, windowMs: number): number => (counter.window + 1) * windowMs - counter.at.getTime()
