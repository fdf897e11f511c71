import type { RateLimitCounter } from '../../src/store/rate-limit-counter.js'
import { mongoCall } from './mongo-call.js'
import { collectionIn, type MongoAccess, serverTime, upsertAfter } from './mongo-options.js'

export const RATE_LIMITS_COLLECTION = 'rate_limits'

export interface RateLimitDocument {
  readonly _id: string
  /** The window counted: the server's time in ms divided by the window's length, rounded down. */
  readonly window: number
  readonly count: number
  /** The server's time of the last hit, to tell how long the window still runs. */
  readonly at: Date
  readonly expiresAt: Date
}

/** One hit, upserted: in the window the server's clock is in, the count goes up by one; in a later one it starts again at 1. */
export const hitUpdate = (windowMs: number, offsetMs: number) => {
  const now = serverTime(offsetMs)
  const window = { $floor: { $divide: [{ $toLong: now }, windowMs] } }
  const count = { $cond: [{ $eq: ['$window', window] }, { $add: ['$count', 1] }, 1] }
  return [{ $set: { count, window, at: now, expiresAt: { $toDate: { $multiply: [{ $add: [window, 1] }, windowMs] } } } }]
}

/** What is left of the counter's window after its last hit. */
export const resetMsOf = (counter: RateLimitDocument, windowMs: number): number => (counter.window + 1) * windowMs - counter.at.getTime()

/** The RateLimitCounter port over MongoDB, shared by every instance: one upserted findOneAndUpdate per counted request. */
export const mongoRateLimitCounter = ({
  clockOffsetMs = () => 0,
  ...access
}: MongoAccess & { readonly clockOffsetMs?: () => number }): RateLimitCounter => {
  return {
    hit: (scope, windowMs) =>
      mongoCall(access, 'count request for rate limit', async () => {
        const counters = await collectionIn<RateLimitDocument>(access, RATE_LIMITS_COLLECTION)
        const counter = await counters.findOneAndUpdate({ _id: scope }, hitUpdate(windowMs, clockOffsetMs()), upsertAfter(access.timeoutMs))
        if (counter === null) throw new Error('the rate-limit counter was not returned')
        return { count: counter.count, resetMs: resetMsOf(counter, windowMs) }
      }),
  }
}
