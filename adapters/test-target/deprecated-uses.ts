import type { Operation } from './fault-rule.js'
// Judged from the entries of requests that have ended (RequestJournal's `kept`).
import type { SettledEntry as JournalEntry } from './journal-entry.js'

/** The calls of one deprecated operation: no mistake today, but what to change before its removal. */
export interface DeprecatedUse {
  readonly operation: Operation
  /** How many of the requests the journal keeps called it. */
  readonly count: number
  /** The `sequence` numbers of those requests, in arrival order. */
  readonly sequences: ReadonlyArray<number>
  readonly message: string
}

const SUCCESSOR_LINK = /<([^>]*)>\s*;\s*rel="successor-version"/

/** The newest value of an answer header among `uses`, as its client was last told it. */
const lastTold = (uses: ReadonlyArray<JournalEntry>, header: string): string | undefined =>
  uses.map((use) => use.response.headers[header]).findLast((value) => value !== undefined)

const messageOf = (operation: Operation, uses: ReadonlyArray<JournalEntry>): string => {
  const sunset = lastTold(uses, 'sunset')
  const successor = SUCCESSOR_LINK.exec(lastTold(uses, 'link') ?? '')?.[1]
  const removal = sunset === undefined ? '' : ` and will be removed on ${sunset} (its Sunset)`
  return `${operation} is deprecated${removal}${successor === undefined ? '' : `: use ${successor} instead (its successor-version)`}.`
}

/**
 * The calls of each operation of `deprecated` among the requests a sandbox's journal keeps: one use
 * per operation called, with what its answers said of its removal, in the order of `deprecated`.
 */
export const deprecatedUsesOf = (
  entries: ReadonlyArray<JournalEntry>,
  deprecated: ReadonlyArray<Operation>,
): ReadonlyArray<DeprecatedUse> =>
  deprecated.flatMap((operation) => {
    const uses = entries.filter((entry) => entry.operation === operation)
    if (uses.length === 0) return []
    return [{ operation, count: uses.length, sequences: uses.map((use) => use.sequence), message: messageOf(operation, uses) }]
  })
