/** The largest seed: the generator's whole state is one unsigned 32-bit integer. */
export const MAX_SEED = 0xffff_ffff

/**
 * One step of mulberry32 (Tommy Ettinger's 32-bit generator, public domain): from a state, a number
 * in [0, 1) and the next state. Its whole state is one 32-bit integer, so a fault rule can show it
 * as its `seed`, and the rule put back goes on with the same sequence; the generators of pure-rand
 * (on npm) keep theirs in several numbers, or are a plain congruential one. A few lines, which
 * must never change: a seed names the same sequence in every version.
 */
export const mulberry32 = (state: number): { readonly value: number; readonly next: number } => {
  const next = (state + 0x6d2b79f5) >>> 0
  let mixed = Math.imul(next ^ (next >>> 15), next | 1)
  mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
  return { value: ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32, next }
}
