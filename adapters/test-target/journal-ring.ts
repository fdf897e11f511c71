import type { JournalRecord } from './journal-entry.js'

/** How many requests each sandbox's journal keeps at most: the newest. Its budget may keep fewer. */
export const JOURNAL_SIZE = 100

/** A request filed in its sandbox's journal, with its place in the order of arrival. */
export interface Filed {
  readonly sequence: number
  readonly record: JournalRecord
}

export interface SandboxJournal {
  next: number
  /**
   * The newest requests filed, in arrival order, in a ring of JOURNAL_SIZE slots whose oldest is at
   * `first`. A ring rather than an array shifted: shifting moved every slot of a long-lived array,
   * each move a write barrier, on every request. A slot no entry holds is empty, so that what
   * left the journal is freed.
   */
  readonly ring: Array<Filed | undefined>
  first: number
  size: number
  /** What the entries kept take of the sandbox's budget (JournalRecord's `bytes`). */
  bytes: number
  dropped: number
}

export const emptyJournal = (): SandboxJournal => ({ next: 1, ring: [], first: 0, size: 0, bytes: 0, dropped: 0 })

const slotOf = (journal: SandboxJournal, index: number): number => (journal.first + index) % JOURNAL_SIZE

/** The requests a journal keeps, oldest (by arrival) first. */
export const inOrder = (journal: SandboxJournal): ReadonlyArray<Filed> =>
  Array.from({ length: journal.size }, (_, index) => journal.ring[slotOf(journal, index)] as Filed)

/** Lets the oldest entry go. */
const dropOldest = (journal: SandboxJournal): void => {
  const oldest = journal.ring[journal.first]
  journal.ring[journal.first] = undefined
  journal.first = slotOf(journal, 1)
  journal.size -= 1
  journal.bytes -= oldest?.record.bytes ?? 0
  journal.dropped += 1
}

/**
 * Files `entry` in arrival order, keeping at most JOURNAL_SIZE entries and `budgetBytes` of them:
 * the oldest leave to make room. An entry older than every entry that would have to leave for it
 * is dropped instead, and so is one that alone takes more than the budget.
 */
export const file = (journal: SandboxJournal, entry: Filed, budgetBytes: number): void => {
  const { ring } = journal
  const sequenceAt = (index: number): number => ring[slotOf(journal, index)]?.sequence ?? 0
  let place = journal.size
  while (place > 0 && sequenceAt(place - 1) > entry.sequence) place -= 1
  while (journal.size > 0 && (journal.size === JOURNAL_SIZE || journal.bytes + entry.record.bytes > budgetBytes)) {
    if (place === 0) break
    dropOldest(journal)
    place -= 1
  }
  if (journal.size === JOURNAL_SIZE || journal.bytes + entry.record.bytes > budgetBytes) {
    journal.dropped += 1
    return
  }
  // Requests mostly end in the order they arrived: then nothing moves, and one slot is written.
  for (let index = journal.size; index > place; index -= 1) ring[slotOf(journal, index)] = ring[slotOf(journal, index - 1)]
  ring[slotOf(journal, place)] = entry
  journal.size += 1
  journal.bytes += entry.record.bytes
}
