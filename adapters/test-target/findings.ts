import { isDeepStrictEqual } from 'node:util'
import { DEPRECATION_HEADERS } from '../http/deprecation.js'
import { echoed } from '../http/error-response.js'
import { answeredCode } from './answered-code.js'
import type { JournalEntry } from './request-journal.js'

/** Something a client did that it should not have, with the journal entries it rests on. */
export interface Finding {
  /** Stable: a client's suite may assert on it. */
  readonly code: FindingCode
  /** The `sequence` numbers of the journal entries it rests on, in arrival order. */
  readonly sequences: ReadonlyArray<number>
  readonly message: string
}

type FindingCode =
  | 'retry_after_ignored'
  | 'retry_without_idempotency_key'
  | 'idempotency_key_reused'
  | 'deprecated_operation_used'
  | 'link_not_followed'
  | 'malformed_authorization'

const arrivalOf = (entry: JournalEntry): number => Date.parse(entry.time)
const answeredAt = (entry: JournalEntry): number => arrivalOf(entry) + entry.durationMs

/**
 * Whether `later` was sent once `earlier` had been answered, rather than beside it: what makes it a
 * retry or a next step. The journal's times have millisecond precision, hence the millisecond given.
 */
const sentAfterAnswerTo = (earlier: JournalEntry, later: JournalEntry): boolean => arrivalOf(later) + 1 >= answeredAt(earlier)

/** The first request of the same operation sent after `entry` was answered. */
const nextStepAfter = (entries: ReadonlyArray<JournalEntry>, at: number, entry: JournalEntry): JournalEntry | undefined =>
  entries.slice(at + 1).find((later) => later.operation === entry.operation && sentAfterAnswerTo(entry, later))

const parsedOrText = (body: string): unknown => {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return body
  }
}

/** Bodies equal as JSON (key order and spacing aside), or as text when either is not JSON. */
const sameBody = (first: JournalEntry, second: JournalEntry): boolean =>
  first.request.body !== null &&
  second.request.body !== null &&
  isDeepStrictEqual(parsedOrText(first.request.body), parsedOrText(second.request.body))

const retryAfterIgnored = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> =>
  entries.flatMap((entry, at) => {
    const retryAfter = entry.response.headers['retry-after']
    if ((entry.status !== 429 && entry.status !== 503) || entry.operation === null || retryAfter === undefined) return []
    if (!/^\d+$/.test(retryAfter)) return []
    const retry = nextStepAfter(entries, at, entry)
    if (retry === undefined) return []
    const waitedMs = Math.max(0, Math.round(arrivalOf(retry) - answeredAt(entry)))
    if (waitedMs >= Number(retryAfter) * 1000) return []
    return [
      {
        code: 'retry_after_ignored',
        sequences: [entry.sequence, retry.sequence],
        message: `${entry.operation} was sent again ${waitedMs} ms after a ${entry.status} whose Retry-After asked to wait ${retryAfter} s.`,
      },
    ]
  })

/** A create whose outcome the client cannot know: failed, or answered with a broken connection. */
const failedHow = (entry: JournalEntry): string | undefined => {
  if (entry.status === null) return 'got no answer (its connection closed)'
  if (entry.fault === 'reset-after' || entry.fault === 'truncated') return 'got a broken answer'
  return entry.status >= 500 ? `failed ${entry.status}` : undefined
}

const retryWithoutIdempotencyKey = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> =>
  entries.flatMap((entry, at) => {
    const how = entry.operation === 'createPet' ? failedHow(entry) : undefined
    const retry = how === undefined ? undefined : nextStepAfter(entries, at, entry)
    if (retry === undefined || retry.request.headers['idempotency-key'] !== undefined || !sameBody(entry, retry)) return []
    return [
      {
        code: 'retry_without_idempotency_key',
        sequences: [entry.sequence, retry.sequence],
        message: `A create was sent again without an Idempotency-Key after it ${how}: had the first stored its pet, the retry stored a second.`,
      },
    ]
  })

const idempotencyKeyReused = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> =>
  entries.flatMap((entry, at) => {
    if (answeredCode(entry.status, entry.response) !== 'idempotency_key_mismatch') return []
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

const deprecatedOperationUsed = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> => {
  const uses = entries.filter((entry) => entry.operation === 'getPet')
  if (uses.length === 0) return []
  return [
    {
      code: 'deprecated_operation_used',
      sequences: uses.map((entry) => entry.sequence),
      message: `getPet (GET /v1/pets/{petId}) is deprecated and will be removed on ${DEPRECATION_HEADERS.Sunset} (its Sunset): read pets with GET /v1/pets.`,
    },
  ]
}

/** The query of a journal entry's path (already redacted, so never a key). */
const queryOf = (entry: JournalEntry): URLSearchParams => new URL(entry.path, 'http://journal').searchParams

const linkNotFollowed = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> =>
  entries.flatMap((entry, at) => {
    if (entry.operation !== 'listPets' || entry.status !== 200 || !/rel="next"/.test(entry.response.headers.link ?? '')) return []
    const next = nextStepAfter(entries, at, entry)
    if (next === undefined) return []
    const [page, asked] = [queryOf(entry), queryOf(next)]
    const sameFirstPage = !asked.has('after') && asked.get('limit') === page.get('limit') && asked.get('status') === page.get('status')
    if (!sameFirstPage) return []
    return [
      {
        code: 'link_not_followed',
        sequences: [entry.sequence, next.sequence],
        message: 'The first page was asked for again right after a page whose Link offered the next: follow its rel="next" URL to read on.',
      },
    ]
  })

/** The form of an Authorization authentication accepts, as the journal shows it (authorizationForm). */
const WELL_FORMED = /^bearer +\[redacted\] *$/i

/** Requests kept because they carried the sandbox's key in a form authentication refuses (journalRefusedCredentials). */
const malformedAuthorization = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Finding> => {
  const byForm = new Map<string, JournalEntry[]>()
  for (const entry of entries) {
    const code = answeredCode(entry.status, entry.response)
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
  [
    ...retryAfterIgnored(entries),
    ...retryWithoutIdempotencyKey(entries),
    ...idempotencyKeyReused(entries),
    ...deprecatedOperationUsed(entries),
    ...linkNotFollowed(entries),
    ...malformedAuthorization(entries),
  ].sort((one, other) => (one.sequences[0] ?? 0) - (other.sequences[0] ?? 0))
