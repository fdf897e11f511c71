import type { KeptRequest } from './journal-entry.js'

/** How many requests each sandbox's journal keeps at most: the newest. Its budget may keep fewer. */
export const JOURNAL_SIZE = 1000

/** What the ring reads and marks of a request it keeps (KeptRequest). */
export type Filed = Pick<KeptRequest, 'sequence' | 'bytes' | 'counted' | 'gone'>

export interface SandboxJournal<F extends Filed = KeptRequest> {
  next: number
  /**
   * The newest requests, in arrival order, in a ring of JOURNAL_SIZE slots whose oldest is at
   * `first`. A ring rather than an array shifted: shifting moved every slot of a long-lived array,
   * each move a write barrier, on every request. A slot no entry holds is empty, so that what
   * left the journal is freed.
   */
  readonly ring: Array<F | undefined>
  first: number
  size: number
  /** What the entries kept take of the sandbox's budget: the sum of their `counted`. */
  bytes: number
  /** How many requests left it to make room. */
  dropped: number
  /** The sequence number of the newest request that left it, 0 while none has: requests leave oldest first, so each one up to it has. */
  droppedThrough: number
}

export const emptyJournal = <F extends Filed>(): SandboxJournal<F> => ({
  next: 1,
  ring: [],
  first: 0,
  size: 0,
  bytes: 0,
  dropped: 0,
  droppedThrough: 0,
})

const slotOf = (journal: SandboxJournal<Filed>, index: number): number => (journal.first + index) % JOURNAL_SIZE

/** The requests a journal keeps, oldest (by arrival) first. */
export const inOrder = <F extends Filed>(journal: SandboxJournal<F>): ReadonlyArray<F> =>
  Array.from({ length: journal.size }, (_, index) => journal.ring[slotOf(journal, index)] as F)

/** Lets the oldest entry go. */
const dropOldest = (journal: SandboxJournal<Filed>): void => {
  const oldest = journal.ring[journal.first]
  journal.ring[journal.first] = undefined
  journal.first = slotOf(journal, 1)
  journal.size -= 1
  journal.dropped += 1
  if (oldest === undefined) return
  oldest.gone = true
  journal.bytes -= oldest.counted
  journal.droppedThrough = oldest.sequence
}

/** The oldest entries leave until what is kept fits in `budgetBytes`, the newest too when it alone takes more. */
const fitIn = (journal: SandboxJournal<Filed>, budgetBytes: number): void => {
  while (journal.size > 0 && journal.bytes > budgetBytes) dropOldest(journal)
}

/**
 * Files a request as it arrives, after every request that arrived before it: the oldest leave to
 * keep at most JOURNAL_SIZE entries and `budgetBytes` of them.
 */
export const arriveIn = <F extends Filed>(journal: SandboxJournal<F>, filed: F, budgetBytes: number): void => {
  if (journal.size === JOURNAL_SIZE) dropOldest(journal)
  journal.ring[slotOf(journal, journal.size)] = filed
  journal.size += 1
  filed.counted = filed.bytes
  journal.bytes += filed.bytes
  fitIn(journal, budgetBytes)
}

/** Counts a request still kept at what it takes now (it ended, its record completed in place): the oldest leave when it takes more. */
export const settleIn = (journal: SandboxJournal<Filed>, filed: Filed, budgetBytes: number): void => {
  if (filed.gone) return
  journal.bytes += filed.bytes - filed.counted
  filed.counted = filed.bytes
  fitIn(journal, budgetBytes)
}
