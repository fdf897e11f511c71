import type { Operation } from './fault-rule.js'
import type { KeptBody } from './journal-body.js'
import type { HeldBody } from './held-body.js'
import type { Redact } from '../http/key-redaction.js'

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

/** How a journal's entries are shown: every key redacted, and the operation of a request still pending named. */
export interface EntryReading {
  readonly redact: Redact
  /** The pet operation a method and path name, as routing would choose it (operationsOf). */
  readonly operationOf: (method: string, path: string) => Operation | null
}

/**
 * A request as its sandbox's journal keeps it, from its arrival: one flat record of plain values,
 * made as the request arrives, completed in place as it ends (journal-record.ts), its entry made the
 * first time it is read (most never are: the journal keeps only the newest). No function of its
 * own, and no object but its arrays of header fields (a body is held as its text, but one read as
 * bytes): the journal keeps hundreds, and every young collection copies each object they hold.
 * Headers and bodies are the costly part of an entry to show (each redacted, headers lower-cased
 * and joined), so it keeps them as they came, within an entry's bounds.
 */
export interface KeptRequest {
  /** Its place in the order its sandbox's requests arrived in, given by the journal. */
  sequence: number
  /** What the journal counted it for of the sandbox's budget (journal-ring.ts). */
  counted: number
  /** It left the journal: what its end files is no part of it. */
  gone: boolean
  /** What it takes of the sandbox's budget. */
  bytes: number
  readonly reading: EntryReading
  readonly id: string
  /** When the request arrived, by its sandbox's clock (ms). */
  readonly started: number
  readonly method: string
  readonly path: string
  readonly url: string
  /** It has a body (hasBody), which its entry shows once the request has ended. */
  readonly hasBody: boolean
  /** Its header lines but the credential, as they came: name, text, name, text... */
  readonly requestLines: ReadonlyArray<string>
  /** The credential's form (`Bearer [redacted]`), when it fits the bounds. */
  readonly authorization: string | undefined
  readonly requestHeadersTruncated: boolean
  /** What its text takes of the budget, as it came. */
  readonly arrivedBytes: number
  /** While it is pending, where the fault applied to it so far is; let go as it ends. */
  pending: { readonly fault?: string | undefined } | undefined
  state: JournalState
  operation: Operation | null
  status: number | null
  /** 0 while pending. */
  durationMs: number
  fault: string | null
  /** Its answer's headers as sent, within the bounds: name, text, name, text... */
  answerLines: ReadonlyArray<string>
  answerHeadersTruncated: boolean
  requestBody: HeldBody
  responseBody: HeldBody
  /** Its entry, once read after it ended. */
  shown: Omit<SettledEntry, 'sequence'> | undefined
}

export const isSettled = (entry: JournalEntry): entry is SettledEntry => entry.state !== 'pending'
