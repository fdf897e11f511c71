import type * as TE from 'fp-ts/TaskEither'
import type { StoreError } from '../domain/errors.js'

/** One request, counted in its window. */
interface RateLimitHit {
  /** The requests counted in this window so far, this one included. */
  readonly count: number
  /** Milliseconds until the window ends and counting starts again, by the counter's clock. */
  readonly resetMs: number
}

/**
 * The rate-limit counter port: requests per scope (a client) in fixed windows of `windowMs`,
 * aligned on the counter's clock (window k covers k×windowMs up to (k+1)×windowMs). Every adapter
 * must pass test/ports/rate-limit-counter.contract.ts:
 * - hit counts one request and answers the count so far, this one included; of n hits of one
 *   scope in one window, from any number of instances sharing the counter, the answers are exactly
 *   1 to n, each once (the limit holds across those instances);
 * - scopes are counted apart, and each window starts again at 1;
 * - resetMs is more than 0 and at most windowMs;
 * - a counter shared by instances decides the window by one clock for all of them;
 * - hit may fail with StoreUnavailable or StoreFailed; the caller decides what a failed count means.
 */
export interface RateLimitCounter {
  readonly hit: (scope: string, windowMs: number) => TE.TaskEither<StoreError, RateLimitHit>
}

/** Between a client's scope and the name of a quota of its own; never in a scope (SHA-256 hex, `made:` before a made key's). */
const QUOTA_SEPARATOR = '#'

/**
 * The scope a client's requests in a quota of its own are counted under, apart from those of its
 * main quota (counted under its scope): a scope like any other to a counter.
 */
export const quotaScope = (scope: string, quota: string): string => `${scope}${QUOTA_SEPARATOR}${quota}`

/** The quota a scope made by quotaScope counts; undefined for a client's own scope. */
export const quotaOfScope = (scope: string): string | undefined => {
  const at = scope.indexOf(QUOTA_SEPARATOR)
  return at === -1 ? undefined : scope.slice(at + 1)
}
