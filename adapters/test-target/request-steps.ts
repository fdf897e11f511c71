import { isDeepStrictEqual } from 'node:util'
import { httpDateMs } from './http-date.js'
// Judged from the entries of requests that have ended (RequestJournal's `kept`).
import type { SettledEntry as JournalEntry } from './journal-entry.js'

/** What the report says of some of a sandbox's requests (a finding, a warning), with the journal entries it rests on. */
export interface Judgement<Code extends string> {
  /** Stable, and named in the contract with its rule: a client's suite may assert on it. */
  readonly code: Code
  /** The `sequence` numbers of the journal entries it rests on, in arrival order. */
  readonly sequences: ReadonlyArray<number>
  readonly message: string
}

/** Judgements in the order of the first request each rests on. */
export const byFirstRequest = <Code extends string>(judged: ReadonlyArray<Judgement<Code>>): ReadonlyArray<Judgement<Code>> =>
  [...judged].sort((one, other) => (one.sequences[0] ?? 0) - (other.sequences[0] ?? 0))

const arrivalOf = (entry: JournalEntry): number => Date.parse(entry.time)
const answeredAt = (entry: JournalEntry): number => arrivalOf(entry) + entry.durationMs

/**
 * Whether `later` was sent once `earlier` had been answered, rather than beside it: what makes it a
 * retry or a next step. The journal's times have millisecond precision, hence the millisecond given.
 */
export const sentAfterAnswerTo = (earlier: JournalEntry, later: JournalEntry): boolean => arrivalOf(later) + 1 >= answeredAt(earlier)

/** How long after `earlier` was answered `later` was sent, in whole milliseconds. */
export const waitedMs = (earlier: JournalEntry, later: JournalEntry): number =>
  Math.max(0, Math.round(arrivalOf(later) - answeredAt(earlier)))

/** How long an answer's `Retry-After` asked its client to wait, and how the header said it, for a message. */
interface RetryAfter {
  readonly waitMs: number
  /** `5 s`, or `until Tue, 01 Dec 2026 10:00:05 GMT`. */
  readonly said: string
}

/**
 * What a 429 or 503 of a pet operation asked its client to wait with `Retry-After`, when it did, in
 * either form (RFC 9110 §10.2.3): seconds, or an HTTP-date, from the answer's `Date` when it had one
 * (a scripted answer's), otherwise from when it was answered, by the sandbox's clock.
 */
export const retryAfterAsked = (entry: JournalEntry): RetryAfter | undefined => {
  const retryAfter = entry.response.headers['retry-after']
  if ((entry.status !== 429 && entry.status !== 503) || entry.operation === null || retryAfter === undefined) return undefined
  if (/^\d+$/.test(retryAfter)) return { waitMs: Number(retryAfter) * 1000, said: `${Number(retryAfter)} s` }
  const until = httpDateMs(retryAfter)
  if (until === undefined) return undefined
  const from = httpDateMs(entry.response.headers.date ?? '') ?? answeredAt(entry)
  // Whole milliseconds down: a client that waited until the date is never found to have waited less.
  return { waitMs: Math.max(0, Math.floor(until - from)), said: `until ${retryAfter}` }
}

/** The requests of the same operation as `entries[at]` sent after it was answered, in arrival order. */
export const stepsAfter = (entries: ReadonlyArray<JournalEntry>, at: number): ReadonlyArray<JournalEntry> => {
  const entry = entries[at]
  return entry === undefined
    ? []
    : entries.slice(at + 1).filter((later) => later.operation === entry.operation && sentAfterAnswerTo(entry, later))
}

const parsedOrText = (body: string): unknown => {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return body
  }
}

/** Bodies equal as JSON (key order and spacing aside), or as text when either is not JSON. */
export const sameBody = (first: JournalEntry, second: JournalEntry): boolean =>
  first.request.body !== null &&
  second.request.body !== null &&
  isDeepStrictEqual(parsedOrText(first.request.body), parsedOrText(second.request.body))

/**
 * Whether `second` asks what `first` asked: the same method and path (its query too), and the same
 * body or none, under no other `Idempotency-Key` (which would name another create). Only such a
 * request is surely a retry.
 */
export const sameRequest = (first: JournalEntry, second: JournalEntry): boolean => {
  const [key, otherKey] = [first.request.headers['idempotency-key'], second.request.headers['idempotency-key']]
  return (
    first.method === second.method &&
    first.path === second.path &&
    (key === undefined || otherKey === undefined || key === otherKey) &&
    ((first.request.body === null && second.request.body === null) || sameBody(first, second))
  )
}

/** The query of a journal entry's path (already redacted, so never a key). */
export const queryOf = (entry: JournalEntry): URLSearchParams => new URL(entry.path, 'http://journal').searchParams
