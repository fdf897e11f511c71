import type { Operation } from './fault-rule.js'
import type { KeptBody } from './journal-body.js'
import type { HeldBody } from './held-body.js'

/**
 * What a journal entry is, as every journal file reads it: kept apart from the files that make,
 * hold, filter and serve entries, so that they import it and never each other in a circle.
 */

/**
 * Where a request stands: `pending` from its arrival until it ends, then how it ended: `answered`
 * (its whole answer sent), `reset` (a fault broke the connection before its whole answer went) or
 * `abandoned` (the connection closed before the answer was sent, the client gone).
 */
export const JOURNAL_STATES = ['pending', 'answered', 'reset', 'abandoned'] as const
export type JournalState = (typeof JOURNAL_STATES)[number]

export interface JournalMessage extends KeptBody {
  readonly headers: Readonly<Record<string, string>>
  /** Some headers were left out: the entry keeps the first that fit its bounds (JOURNAL_HEADER_FIELDS, JOURNAL_HEADER_CHARS). */
  readonly headersTruncated: boolean
}

/** One request of a sandbox, as GET /v1/sandbox/requests answers it. */
export interface JournalEntry {
  /** Its place in the order the sandbox's requests arrived in: 1, 2, 3... since the journal was last cleared. */
  readonly sequence: number
  readonly id: string
  /** When the request arrived, by its sandbox's clock. */
  readonly time: string
  readonly method: string
  readonly path: string
  /** The pet operation its method and path name, whatever it was answered; null for any other request. */
  readonly operation: Operation | null
  readonly state: JournalState
  /** The status answered, once its answer's head went; null before, and when none did. */
  readonly status: number | null
  /** Null while pending. */
  readonly durationMs: number | null
  readonly fault: string | null
  readonly request: JournalMessage
  /** Null while pending. */
  readonly response: JournalMessage | null
}

/** The entry of a request that has ended: what findings are judged from. */
export interface SettledEntry extends JournalEntry {
  readonly state: Exclude<JournalState, 'pending'>
  readonly durationMs: number
  readonly response: JournalMessage
}

/** A request as a journal holds it: what it takes of its sandbox's budget, and its entry as it is read. */
export interface HeldRequest {
  readonly bytes: number
  readonly show: () => Omit<JournalEntry, 'sequence'>
}

/**
 * A request that has ended, as it is filed: what coverage reads at once, and the entry as it is
 * read, made only when it is first read (most never are: the journal keeps only the newest).
 * Headers and bodies are the costly part of an entry to show (each redacted, headers lower-cased and
 * joined), so a request keeps them as they came (within an entry's bounds) until then.
 */
export interface JournalRecord extends HeldRequest, Pick<JournalEntry, 'operation' | 'status' | 'fault'> {
  /** The answer's body, as the entry will show it (an Error's code is what coverage reads). */
  readonly response: HeldBody
  readonly show: () => Omit<SettledEntry, 'sequence'>
}

export const isSettled = (entry: JournalEntry): entry is SettledEntry => entry.state !== 'pending'
