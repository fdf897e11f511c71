/**
 * The test target's one memory rule: a sandbox holds at most its budget of bytes, whatever its
 * client sends. Bytes are estimated, not measured (the engine tells no object's size), by one rule
 * every holder follows: 2 bytes per character of each string kept (UTF-16; the engine keeps ASCII
 * in 1), plus a fixed overhead per object, entry or value kept. test/bench/sandbox-memory.ts
 * checks the estimate against what a full sandbox really takes.
 *
 * The budget is split between what a sandbox holds, each part with its rule for when it is full
 * (docs/guides/settings.md states them): its request journal drops its oldest entries, a create
 * that its pets and Idempotency-Key records have no room for is refused, a fault script bigger than
 * its part is refused, and a coverage mark past its part is not kept. A part that is full never
 * takes from another, so what a client may do in one never depends on what it did in another.
 */
export interface SandboxBudget {
  readonly journalBytes: number
  /** Pets created in the sandbox and its Idempotency-Key records (its seed's pets are shared: SEEDED_PET_BYTES). */
  readonly storeBytes: number
  readonly scriptBytes: number
  /** What its report counts of the contract: a mark per response, error code and fault reached. */
  readonly coverageBytes: number
}

const KIB = 1024

/**
 * What every sandbox may hold: 2 MiB, with SANDBOX_OVERHEAD_BYTES, so that the default 1,000 made
 * sandboxes fit in half of a 4 GiB heap, and the store's part holds the hundreds of keyed creates
 * (thousands without a key) a client's suite makes in one sandbox.
 */
export const DEFAULT_SANDBOX_BUDGET: SandboxBudget = {
  journalBytes: 768 * KIB,
  storeBytes: 1104 * KIB,
  scriptBytes: 128 * KIB,
  coverageBytes: 32 * KIB,
}

/** What a sandbox costs before it holds anything: its ports, their maps, its clock, its key. */
export const SANDBOX_OVERHEAD_BYTES = 16 * KIB

/**
 * What each seeded pet costs every sandbox: its slots in the sandbox's columns. Its name is held
 * once, by the seed, so a seed is not charged to a sandbox's budget but added to it (`sandboxBytes`).
 */
export const SEEDED_PET_BYTES = 40

/** What one sandbox may take in all, with `seededPets` seeded pets. */
export const sandboxBytes = (budget: SandboxBudget, seededPets: number): number =>
  SANDBOX_OVERHEAD_BYTES +
  budget.journalBytes +
  budget.storeBytes +
  budget.scriptBytes +
  budget.coverageBytes +
  seededPets * SEEDED_PET_BYTES

/** The estimate of a string kept: 2 bytes a character. */
export const textBytes = (text: string): number => 2 * text.length

/** The estimate of each JSON value kept (object, array, string, number, boolean or null), beside its strings' characters. */
export const VALUE_BYTES = 64

/** The estimate of a parsed JSON value kept: VALUE_BYTES for it and for each value in it, and its strings' (and member names') characters. */
export const jsonBytes = (value: unknown): number => {
  if (typeof value === 'string') return VALUE_BYTES + textBytes(value)
  if (Array.isArray(value)) return value.reduce<number>((bytes, item) => bytes + jsonBytes(item), VALUE_BYTES)
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).reduce<number>((bytes, [name, member]) => bytes + textBytes(name) + jsonBytes(member), VALUE_BYTES)
  return VALUE_BYTES
}

/** What one holder keeps of one sandbox, against its part of the budget. */
export interface Meter {
  /** Counts `bytes` more, and answers true, when they fit in the part; otherwise counts nothing and answers false. */
  readonly charge: (bytes: number) => boolean
  /** Counts `bytes` fewer: something charged was let go. */
  readonly release: (bytes: number) => void
  readonly used: () => number
  readonly limit: number
}

export const meter = (limit: number): Meter => {
  let used = 0
  return {
    charge: (bytes) => {
      if (used + bytes > limit) return false
      used += bytes
      return true
    },
    release: (bytes) => void (used -= bytes),
    used: () => used,
    limit,
  }
}
