import type { RateLimitCounter } from '../../src/wiring/rate-limit-counter.js'
import { mongoCall, upsertOnceMore } from './mongo-call.js'
import { accessOf, collectionIn, type MongoAdapterOptions, serverBound } from './mongo-options.js'
import { hitUpdate, RATE_LIMITS_COLLECTION, type RateLimitDocument, resetMsOf } from './rate-limit-queries.js'

export interface MongoRateLimitCounterOptions extends MongoAdapterOptions {
  /** Moves the server's clock as the counter sees it, for tests only. */
  readonly clockOffsetMs?: () => number
}

/**
 * The RateLimitCounter port over MongoDB, shared by every instance on the database: one atomic
 * findOneAndUpdate per counted request (see hitUpdate).
 */
export const mongoRateLimitCounter = ({ clockOffsetMs = () => 0, ...options }: MongoRateLimitCounterOptions): RateLimitCounter => {
  // A count is a hint, not a record: acknowledged by the primary alone unless given.
  const access = accessOf({ writeConcern: { w: 1 }, ...options })
  const bound = serverBound(access.timeoutMs)
  return {
    hit: (scope, windowMs) =>
      mongoCall(access, 'count request for rate limit', async () => {
        const counters = await collectionIn<RateLimitDocument>(access, RATE_LIMITS_COLLECTION)
        const counter = await upsertOnceMore(() =>
          counters.findOneAndUpdate({ _id: scope }, hitUpdate(windowMs, clockOffsetMs()), {
            ...bound,
            upsert: true,
            returnDocument: 'after',
          }),
        )
        if (counter === null) throw new Error('the rate-limit counter was not returned')
        return { count: counter.count, resetMs: resetMsOf(counter, windowMs) }
      }),
  }
}
