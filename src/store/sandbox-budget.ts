/**
 * The test target's one memory rule: a sandbox holds at most its budget of bytes, whatever its
 * client sends, as a Meter (meter.ts) estimates them. test/bench/sandbox-memory.ts checks the
 * estimate against what a full sandbox really takes. The composition root sizes the test target
 * with it (how many made sandboxes fit in the heap) and bounds the store's data sets by its
 * `storeBytes`; the test target bounds the rest.
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

/** How many sandboxes made at run time may be open at once (PETSTORE_SANDBOX_MAX), unless memory holds fewer. */
export const DEFAULT_SANDBOX_MAX = 1000
/** How long a made sandbox may go unused before it ends (PETSTORE_SANDBOX_IDLE_SECONDS). */
export const DEFAULT_SANDBOX_IDLE_SECONDS = 3600

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
