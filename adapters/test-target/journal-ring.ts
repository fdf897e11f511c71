import type { JournalRecord } from './request-journal.js'

/** How many requests each sandbox's journal keeps: the newest. */
export const JOURNAL_SIZE = 100

/** A request filed in its sandbox's journal, with its place in the order of arrival. */
export interface Filed {
  readonly sequence: number
  readonly record: JournalRecord
}

export interface SandboxJournal {
  next: number
  /**
   * The newest JOURNAL_SIZE requests filed, in arrival order, in a ring whose oldest is at `first`
   * once it is full. A ring rather than an array shifted when full: shifting moved every slot of a
   * long-lived array, each move a write barrier, on every request.
   */
  readonly ring: Filed[]
  first: number
  dropped: number
}

/** The requests a journal keeps, oldest (by arrival) first. */
export const inOrder = ({ ring, first }: SandboxJournal): ReadonlyArray<Filed> =>
  first === 0 ? ring : [...ring.slice(first), ...ring.slice(0, first)]

/** Files `entry` in arrival order, keeping the newest JOURNAL_SIZE; an entry older than all of a full journal is dropped. */
export const file = (journal: SandboxJournal, entry: Filed): void => {
  const { ring } = journal
  const slot = (index: number): number => (journal.first + index) % JOURNAL_SIZE
  let place = ring.length
  while (place > 0 && (ring[slot(place - 1)]?.sequence ?? 0) > entry.sequence) place -= 1
  let size = ring.length
  if (size === JOURNAL_SIZE) {
    journal.dropped += 1
    if (place === 0) return
    // The oldest leaves, and its slot is the newest's.
    journal.first = slot(1)
    size -= 1
    place -= 1
  }
  // Requests mostly end in the order they arrived: then nothing moves, and one slot is written.
  for (let index = size; index > place; index -= 1) {
    const later = ring[slot(index - 1)]
    if (later !== undefined) ring[slot(index)] = later
  }
  ring[slot(place)] = entry
}
