/**
 * Where the core and its adapters read the time: milliseconds since the epoch. Time-dependent
 * rules (an Idempotency-Key's lease and record, a rate-limit window) read a Clock rather than
 * Date.now, so that a data set can run on a clock its client moves forward.
 */
export interface Clock {
  readonly now: () => number
}

/** The real clock: what every data set reads unless its clock was moved. */
export const realClock: Clock = { now: () => Date.now() }
