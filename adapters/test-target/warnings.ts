// Judged from the entries of requests that have ended (RequestJournal's `kept`).
import type { SettledEntry as JournalEntry } from './journal-entry.js'
import {
  byFirstRequest,
  type Judgement,
  queryOf,
  retryAfterAsked,
  sameRequest,
  sentAfterAnswerTo,
  stepsAfter,
  waitedMs,
} from './request-steps.js'

/**
 * The rules of warnings, as the contract's WarningCode names them: what may be a mistake, or may be
 * what the client meant (two callers side by side, a page read again on purpose).
 */
export const WARNING_CODES = ['request_before_retry_after', 'link_not_followed'] as const

/** Something a client did that may be a mistake: the service cannot tell from its requests. */
export type Warning = Judgement<(typeof WARNING_CODES)[number]>

/**
 * Another request of the operation sent sooner than a 429 or 503 asked: a retry changed on its way, or
 * a caller that had not seen the answer. Not when the same request was retried too soon: that is the
 * finding `retry_after_ignored`.
 */
const requestBeforeRetryAfter = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Warning> =>
  entries.flatMap((entry, at) => {
    const asked = retryAfterAsked(entry)
    if (asked === undefined) return []
    const soon = stepsAfter(entries, at).filter((later) => waitedMs(entry, later) < asked.waitMs)
    const other = soon.find((later) => !sameRequest(entry, later))
    if (other === undefined || soon.some((later) => sameRequest(entry, later))) return []
    return [
      {
        code: 'request_before_retry_after',
        sequences: [entry.sequence, other.sequence],
        message: `Another ${entry.operation} request was sent ${waitedMs(entry, other)} ms after a ${entry.status} whose Retry-After asked to wait ${asked.said}.`,
      },
    ]
  })

const NEXT_LINK = /<([^>]*)>\s*;\s*rel="next"/

/** The query of the next page a listPets page's `Link` offered, when it offered one. */
const nextOffered = (entry: JournalEntry): URLSearchParams | undefined => {
  if (entry.operation !== 'listPets' || entry.status !== 200) return undefined
  const target = NEXT_LINK.exec(entry.response.headers.link ?? '')?.[1]
  return target === undefined ? undefined : new URL(target, 'http://journal').searchParams
}

/** The parameters of listPets that name a page of a walk. */
const PAGE_PARAMETERS = ['limit', 'status', 'after'] as const

const asksFor = (entry: JournalEntry, page: URLSearchParams): boolean =>
  entry.operation === 'listPets' && PAGE_PARAMETERS.every((name) => queryOf(entry).get(name) === page.get(name))

/**
 * The pages whose next page no later request asked for. Each request for a next page continues the
 * newest page before it that offered that one and is not yet continued: two walks side by side,
 * each following its `Link`, leave none.
 */
const pagesNotContinued = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<readonly [page: JournalEntry, at: number]> => {
  const open: Array<readonly [page: JournalEntry, at: number, next: URLSearchParams]> = []
  entries.forEach((entry, at) => {
    const continued = open.findLastIndex(([page, , next]) => asksFor(entry, next) && sentAfterAnswerTo(page, entry))
    if (continued >= 0) open.splice(continued, 1)
    const next = nextOffered(entry)
    if (next !== undefined) open.push([entry, at, next])
  })
  return open.map(([page, at]) => [page, at])
}

/** A page whose next was never asked for, then the first page asked for again: a walk restarted, or a page read again. */
const linkNotFollowed = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Warning> =>
  pagesNotContinued(entries).flatMap(([page, at]) => {
    const next = stepsAfter(entries, at)[0]
    if (next === undefined) return []
    const [shown, asked] = [queryOf(page), queryOf(next)]
    if (asked.has('after') || asked.get('limit') !== shown.get('limit') || asked.get('status') !== shown.get('status')) return []
    return [
      {
        code: 'link_not_followed',
        sequences: [page.sequence, next.sequence],
        message:
          'The first page was asked for again after a page whose Link offered the next, which no request asked for: to read on, follow its rel="next" URL.',
      },
    ]
  })

/** What a sandbox's client did that may be a mistake, judged from the requests its journal keeps, like findings (findingsOf). */
export const warningsOf = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<Warning> =>
  byFirstRequest([...requestBeforeRetryAfter(entries), ...linkNotFollowed(entries)])
