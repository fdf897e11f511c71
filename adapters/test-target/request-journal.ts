import { isSettled, type JournalEntry, type KeptRequest, type SettledEntry } from './journal-entry.js'
import { type JournalFilter, matchesFilter } from './journal-filter.js'
import { shownEntry } from './journal-record.js'
import { arriveIn, emptyJournal, inOrder, type SandboxJournal, settleIn } from './journal-ring.js'

/** A request's place in its sandbox's journal, taken as it arrives. */
interface JournalPlace {
  /** Files the request in its place as it ended, its record completed (settle); nothing when it left the journal, or the journal was cleared, since it arrived. */
  readonly file: () => void
}

/** A count of a journal's entries, and whether every request it is about is still kept. */
export interface JournalCount {
  readonly count: number
  /** False when a request that arrived since the journal began (or was cleared), or since the filter's `since`, is no longer kept. */
  readonly complete: boolean
}

export interface RequestJournal {
  /** Files a request that has just arrived, `pending`, after every request that arrived before it. */
  readonly arrive: (sandbox: string, request: KeptRequest) => JournalPlace
  /** The entries that match `filter`, newest (by arrival) first, from the newest older than `before` when given: each shown as it is taken. */
  readonly list: (sandbox: string, filter: JournalFilter, before?: number) => Iterable<JournalEntry>
  /** How many entries the journal keeps that match `filter`. */
  readonly count: (sandbox: string, filter: JournalFilter) => JournalCount
  /** Every request it keeps that has ended, oldest (by arrival) first, and how many left it to keep the newest within its bounds. */
  readonly kept: (sandbox: string) => KeptRequests
  /** Empties the journal; its sequence numbers start again at 1. */
  readonly clear: (sandbox: string) => void
}

/** A sandbox's journal as a whole, for what is judged from it (the report). */
interface KeptRequests {
  readonly entries: ReadonlyArray<SettledEntry>
  /** Requests of the sandbox that arrived since the journal was cleared and are no longer kept. */
  readonly dropped: number
}

const entryOf = (request: KeptRequest): JournalEntry => ({ sequence: request.sequence, ...shownEntry(request) })

/**
 * The journals of every sandbox, in memory (sandboxes live in one process, on the embedded store):
 * each keeps at most JOURNAL_SIZE entries and `budgetBytes` of them (the journal's part of its
 * sandbox's budget), the newest by arrival, each from the moment its request arrives.
 */
export const requestJournal = (budgetBytes: number): RequestJournal => {
  const journals = new Map<string, SandboxJournal>()
  const filedOf = (sandbox: string): ReadonlyArray<KeptRequest> => {
    const journal = journals.get(sandbox)
    return journal === undefined ? [] : inOrder(journal)
  }
  return {
    arrive: (sandbox, request) => {
      const journal = journals.get(sandbox) ?? emptyJournal<KeptRequest>()
      journals.set(sandbox, journal)
      request.sequence = journal.next
      journal.next += 1
      arriveIn(journal, request, budgetBytes)
      return {
        file: () => {
          // A request that arrived before a clear (a DELETE, a reset) is no part of the journal after it.
          if (journals.get(sandbox) === journal) settleIn(journal, request, budgetBytes)
        },
      }
    },
    list: function* (sandbox, filter, before = Number.MAX_SAFE_INTEGER) {
      const filed = filedOf(sandbox)
      for (let at = filed.length - 1; at >= 0; at -= 1) {
        const entry = filed[at]
        if (entry === undefined || entry.sequence >= before) continue
        const shown = entryOf(entry)
        if (matchesFilter(shown, filter)) yield shown
      }
    },
    count: (sandbox, filter) => ({
      count: filedOf(sandbox).filter((entry) => matchesFilter(entryOf(entry), filter)).length,
      complete: (journals.get(sandbox)?.droppedThrough ?? 0) <= (filter.since ?? 0),
    }),
    kept: (sandbox) => ({
      entries: filedOf(sandbox).map(entryOf).filter(isSettled),
      dropped: journals.get(sandbox)?.dropped ?? 0,
    }),
    clear: (sandbox) => void journals.delete(sandbox),
  }
}
