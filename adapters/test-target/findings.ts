import { echoed } from '../http/error-response.js'
import { answeredCode } from './answered-code.js'
// Judged from the entries of requests that have ended (RequestJournal's `kept`).
import type { SettledEntry as JournalEntry } from './journal-entry.js'
import { byFirstRequest, type Judgement, retryAfterAsked, sameBody, sameRequest, stepsAfter, waitedMs } from './request-steps.js'

/**
 * The rules of findings, as the contract's FindingCode names them: each holds only what is a mistake
 * whatever the client meant, so that a correct client's suite can assert that there is none. What the
 * service cannot be sure of is a warning (warnings.ts).
 */
export const FINDING_CODES = [
  'retry_after_ignored',
  'retry_without_idempotency_key',
  'idempotency_key_reused',
  'malformed_authorization',
] as const

/** Something a client did that it should not have, whatever it meant. */
export type Finding = Judgement<(typeof FINDING_CODES)[number]>

/** The same request sent again, sooner than its 429 or 503 asked: a retry, whatever else the client did meanwhile. */
const retryAfterIgnored = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> =>
  entries.flatMap((entry, at) => {
    const asked = retryAfterAsked(entry)
    const retry = asked === undefined ? undefined : stepsAfter(entries, at).find((later) => sameRequest(entry, later))
    if (asked === undefined || retry === undefined || waitedMs(entry, retry) >= asked.waitMs) return []
    return [
      {
        code: 'retry_after_ignored',
        sequences: [entry.sequence, retry.sequence],
        message: `${entry.operation} was sent again ${waitedMs(entry, retry)} ms after a ${entry.status} whose Retry-After asked to wait ${asked.said}.`,
      },
    ]
  })

/**
 * A create whose outcome the client cannot know: no answer, a broken one, or a 5xx that may have
 * stored it (every 5xx but 507 `sandbox_full`, which says nothing was stored).
 */
const unknownOutcome = (entry: JournalEntry): string | undefined => {
  if (entry.status === null) return 'got no answer (its connection closed)'
  if (entry.fault === 'reset-after' || entry.fault === 'truncated') return 'got a broken answer'
  return entry.status >= 500 && entry.status !== 507 ? `failed ${entry.status}` : undefined
}

/** The next create after one of unknown outcome, with the same body and no `Idempotency-Key`. */
const retryWithoutIdempotencyKey = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> =>
  entries.flatMap((entry, at) => {
    const how = entry.operation === 'createPet' ? unknownOutcome(entry) : undefined
    const retry = how === undefined ? undefined : stepsAfter(entries, at)[0]
    if (retry === undefined || retry.request.headers['idempotency-key'] !== undefined || !sameBody(entry, retry)) return []
    return [
      {
        code: 'retry_without_idempotency_key',
        sequences: [entry.sequence, retry.sequence],
        message: `A create was sent again without an Idempotency-Key after it ${how}: had the first stored its pet, the retry stored a second.`,
      },
    ]
  })

/** Refused by the service itself: an `Idempotency-Key` names one create, and its body. */
const idempotencyKeyReused = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> =>
  entries.flatMap((entry, at) => {
    if (answeredCode(entry.status, () => entry.response) !== 'idempotency_key_mismatch') return []
    const key = entry.request.headers['idempotency-key']
    const first = entries
      .slice(0, at)
      .reverse()
      .find((earlier) => earlier.operation === 'createPet' && earlier.request.headers['idempotency-key'] === key && earlier.status !== 422)
    return [
      {
        code: 'idempotency_key_reused',
        sequences: first === undefined ? [entry.sequence] : [first.sequence, entry.sequence],
        message:
          'An Idempotency-Key was sent again with another body (422 idempotency_key_mismatch): a key names one create, a new pet needs a new key.',
      },
    ]
  })

/** The form of an Authorization authentication accepts, as the journal shows it (authorizationForm). */
const WELL_FORMED = /^bearer +\[redacted\] *$/i

/** Requests kept because they carried the sandbox's key in a form authentication refuses (journalRefusedCredentials). */
const malformedAuthorization = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> => {
  const byForm = new Map<string, JournalEntry[]>()
  for (const entry of entries) {
    const code = answeredCode(entry.status, () => entry.response)
    const form = entry.request.headers.authorization ?? ''
    // A well-formed key refused (a made sandbox that ended on the request's way) is no malformed one.
    if ((code !== 'unauthorized' && code !== 'invalid_request') || WELL_FORMED.test(form)) continue
    const group = `${entry.status} ${form}`
    byForm.set(group, [...(byForm.get(group) ?? []), entry])
  }
  return [...byForm.values()].flatMap((refused) => {
    const first = refused[0]
    if (first === undefined) return []
    const form = echoed(first.request.headers.authorization ?? '')
    return [
      {
        code: 'malformed_authorization',
        sequences: refused.map((entry) => entry.sequence),
        message: `Refused ${first.status}: this sandbox's key was sent as Authorization "${form}", where exactly one "Bearer <key>" is accepted.`,
      },
    ]
  })
}

/**
 * What a sandbox's client did that it should not have, judged from the requests its journal keeps
 * (in arrival order): ordered by the first request each rests on. A finding whose requests are no
 * longer kept (the journal keeps the newest JOURNAL_SIZE) is missed.
 */
export const findingsOf = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> =>
  byFirstRequest([
    ...retryAfterIgnored(entries),
    ...retryWithoutIdempotencyKey(entries),
    ...idempotencyKeyReused(entries),
    ...malformedAuthorization(entries),
  ])
