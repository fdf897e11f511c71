import type { OutgoingHttpHeaders } from 'node:http'
import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { Middleware, Next, ParameterizedContext } from 'koa'
import type { Clock } from '../../src/domain/clock.js'
import { OPERATIONS, type Operation } from './fault-rule.js'
import type { FaultState } from './faults.js'
import { type KeptBody, tapBody } from './journal-body.js'
import type { JournalEntry, JournalRecord } from './journal-entry.js'
import { type JournalFilter, matchesFilter } from './journal-filter.js'
import { answerBody, filedRecord, JOURNAL_BODY_BYTES, NO_BODY, requestBody } from './journal-record.js'
import { emptyJournal, type Filed, file, inOrder, type SandboxJournal } from './journal-ring.js'
import type { Redact } from '../http/key-redaction.js'

/** Requests to these paths (the journal, the script, the reset, making and ending sandboxes) are not kept. */
export const SANDBOX_PATHS = /^\/v1\/sandbox(?:es)?(?:\/|$)/

/** A request's place in its sandbox's journal, taken as it arrives. */
interface JournalPlace {
  readonly sequence: number
  /** Files the request in its place, once it is known; dropped when the journal was cleared since the request arrived. */
  readonly record: (record: JournalRecord) => void
}

export interface RequestJournal {
  /** The next sequence number of the sandbox's journal, for a request that has just arrived. */
  readonly arrive: (sandbox: string) => JournalPlace
  /** The entries that match `filter`, newest (by arrival) first, from the newest older than `before` when given: each shown as it is taken. */
  readonly list: (sandbox: string, filter: JournalFilter, before?: number) => Iterable<JournalEntry>
  /** How many entries the journal keeps that match `filter`. */
  readonly count: (sandbox: string, filter: JournalFilter) => number
  /** Every entry it keeps, oldest (by arrival) first, and how many were dropped to keep the newest within its bounds. */
  readonly kept: (sandbox: string) => KeptRequests
  /** Empties the journal; its sequence numbers start again at 1. */
  readonly clear: (sandbox: string) => void
}

/** A sandbox's journal as a whole, for what is judged from it (the report). */
interface KeptRequests {
  readonly entries: ReadonlyArray<JournalEntry>
  /** Requests of the sandbox that arrived since the journal was cleared and are no longer kept. */
  readonly dropped: number
}

const entryOf = ({ sequence, record }: Filed): JournalEntry => ({ sequence, ...record.show() })

/**
 * The journals of every sandbox, in memory (sandboxes live in one process, on the embedded store):
 * each keeps at most JOURNAL_SIZE entries and `budgetBytes` of them (the journal's part of its
 * sandbox's budget), the newest.
 */
export const requestJournal = (budgetBytes: number): RequestJournal => {
  const journals = new Map<string, SandboxJournal>()
  const filedOf = (sandbox: string): ReadonlyArray<Filed> => {
    const journal = journals.get(sandbox)
    return journal === undefined ? [] : inOrder(journal)
  }
  return {
    arrive: (sandbox) => {
      const journal = journals.get(sandbox) ?? emptyJournal()
      journals.set(sandbox, journal)
      const sequence = journal.next
      journal.next += 1
      return {
        sequence,
        record: (record) => {
          // A request that arrived before a clear (a DELETE, a reset) is no part of the journal after it.
          if (journals.get(sandbox) === journal) file(journal, { sequence, record }, budgetBytes)
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
    count: (sandbox, filter) => filedOf(sandbox).filter((entry) => matchesFilter(entryOf(entry), filter)).length,
    kept: (sandbox) => ({ entries: filedOf(sandbox).map(entryOf), dropped: journals.get(sandbox)?.dropped ?? 0 }),
    clear: (sandbox) => void journals.delete(sandbox),
  }
}

interface JournalOptions {
  /** Shows each configured API key as `[redacted]`, wherever it appears in an entry. */
  readonly redact: Redact
  /** The pet operation a request's method and path name (operationsOf). */
  readonly operationOf: (method: string, path: string) => Operation | null
  /** Each sandbox's clock, which dates its entries (their durations are real time). */
  readonly clockOf: (sandbox: string) => Clock
}

const isOperation = (name: string | undefined): name is Operation => (OPERATIONS as ReadonlyArray<string | undefined>).includes(name)

/**
 * The pet operation a method and path name among `router`'s routes (HEAD names its GET's), as routing
 * would choose it, whatever the request is then answered (a 429 before routing, a forced failure).
 */
export const operationsOf =
  (router: Router) =>
  (method: string, path: string): Operation | null =>
    router
      .match(path, method)
      .pathAndMethod.map((layer) => layer.name)
      .find(isOperation) ?? null

/** Keeps one request in `sandbox`'s journal, around the rest of its handling (`next`). */
export type KeepRequest = (ctx: ParameterizedContext<FaultState>, sandbox: string, next: Next) => Promise<void>

/**
 * Keeps a request in a sandbox's journal, in the place its arrival took, once its answer is sent or
 * its connection closed and its body has arrived: what the client sent (its body even when it was
 * refused unread, see tapBody), what it was answered (as sent, after every middleware, an unexpected
 * failure's 500 included; no body for a HEAD, and of a truncated answer only what was sent), and the
 * fault applied. A request whose connection was reset before an answer has no status and no answer.
 * No configured key is kept, wherever it was sent: a key in a header, the URL or a body, or an id or
 * body the answer echoed, is `[redacted]`.
 */
export const keepingRequests =
  (journal: RequestJournal, { redact, operationOf, clockOf }: JournalOptions): KeepRequest =>
  async (ctx, sandbox, next) => {
    const place = journal.arrive(sandbox)
    const started = clockOf(sandbox).now()
    const startedAt = performance.now()
    const body = tapBody(ctx.req, ctx.res, JOURNAL_BODY_BYTES)
    /** What went on the wire, which a fault may have cut short: its headers as sent, its body as the entry shows it. */
    const answer = (): { readonly headers: OutgoingHttpHeaders; readonly body: KeptBody } => {
      const truncated = ctx.state.truncated
      if (truncated !== undefined) return { headers: truncated.headers, body: answerBody(truncated.body, redact) }
      if (!ctx.res.headersSent) return { headers: {}, body: NO_BODY }
      return { headers: ctx.res.getHeaders(), body: ctx.method === 'HEAD' ? NO_BODY : answerBody(ctx.body, redact) }
    }
    let answered = false
    const record = (): void => {
      if (answered) return
      answered = true
      const durationMs = Math.round((performance.now() - startedAt) * 1000) / 1000
      // A truncated answer always sends its status line whole.
      const status = ctx.res.headersSent || ctx.state.truncated !== undefined ? ctx.res.statusCode : null
      const response = answer()
      // The route routing chose, when the request got that far; otherwise (a 429, a refused credential) the router is asked.
      const routed = (ctx as Partial<Pick<RouterContext, 'routerName'>>).routerName
      const operation = routed === undefined ? operationOf(ctx.method, ctx.path) : isOperation(routed) ? routed : null
      void body.then((tapped) =>
        place.record(
          filedRecord(
            {
              id: String(ctx.res.getHeader('X-Request-Id') ?? ''),
              started,
              method: ctx.method,
              url: ctx.url,
              operation,
              status,
              durationMs,
              fault: ctx.state.fault ?? null,
              requestHeaders: ctx.req.headers,
              rawRequestHeaders: ctx.req.rawHeaders,
              requestBody: requestBody(ctx.request.rawBody, tapped, redact),
              responseHeaders: response.headers,
              responseBody: response.body,
            },
            redact,
          ),
        ),
      )
    }
    // Each emitted once by a response (`record` runs for the first): `on` spares once's wrapper.
    ctx.res.on('finish', record)
    ctx.res.on('close', record)
    await next()
  }

/** Keeps each request of a sandbox (an authenticated request outside /v1/sandbox/) in its journal. */
export const journalRequests =
  (keep: KeepRequest): Middleware<FaultState> =>
  (ctx, next) => {
    const sandbox = ctx.state.client?.scope
    return sandbox === undefined || SANDBOX_PATHS.test(ctx.path) ? next() : keep(ctx, sandbox, next)
  }
