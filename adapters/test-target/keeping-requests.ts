import type Router from '@koa/router'
import type { RouterContext } from '@koa/router'
import type { Middleware, Next, ParameterizedContext } from 'koa'
import type { Clock } from '../../src/domain/clock.js'
import { OPERATIONS, type Operation } from './fault-rule.js'
import type { FaultState } from './fault-state.js'
import { whenClientLeaves } from './client-left.js'
import { tapBody } from './journal-body.js'
import { type HeldBody, JOURNAL_BODY_BYTES, NO_BODY } from './held-body.js'
import { hasBody } from '../http/body-received.js'
import { answerBody, arrivedRecord, requestBody, settle } from './journal-record.js'
import type { EntryReading } from './journal-entry.js'
import { type HeaderSource, headersIn, headersOfAnswer } from './journal-headers.js'
import type { RequestJournal } from './request-journal.js'
import type { Redact } from '../http/key-redaction.js'

/** Requests to these paths (the journal, the script, the reset, making and ending sandboxes) are not kept. */
export const SANDBOX_PATHS = /^\/v1\/sandbox(?:es)?(?:\/|$)/

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
  (router: Pick<Router, 'match'>) =>
  (method: string, path: string): Operation | null =>
    router
      .match(path, method)
      .pathAndMethod.map((layer) => layer.name)
      .find(isOperation) ?? null

/** Keeps one request in `sandbox`'s journal, around the rest of its handling (`next`). */
export type KeepRequest = (ctx: ParameterizedContext<FaultState>, sandbox: string, next: Next) => Promise<void>

/** The faults that break the connection before the whole answer goes. */
const BREAKING_FAULTS: ReadonlyArray<string | undefined> = ['reset', 'reset-after', 'truncated']

/**
 * Keeps a request in a sandbox's journal from its arrival, `pending`, and files how it ended in the
 * place its arrival took once its answer is sent or its connection closed and its body has arrived:
 * what the client sent (its body even when it was refused unread, see tapBody), what it was
 * answered (as sent, after every middleware, an unexpected failure's 500 included; no body for a
 * HEAD, and of a truncated answer only what was sent), the fault applied, and its state: `answered`
 * when the whole answer went, `reset` when a fault broke the connection first, `abandoned` when the
 * client left before the answer (whenClientLeaves), or the connection closed for any other reason.
 * A request whose connection closed before an answer has no status and no answer. No configured key is kept,
 * wherever it was sent: a key in a header, the URL or a body, or an id or body the answer echoed,
 * is `[redacted]`.
 */
export const keepingRequests = (journal: RequestJournal, { redact, operationOf, clockOf }: JournalOptions): KeepRequest => {
  // One for every record: how their entries are shown.
  const reading: EntryReading = { redact, operationOf }
  return (ctx, sandbox, next) => {
    const { method, path } = ctx
    const request = arrivedRecord(
      {
        id: String(ctx.res.getHeader('X-Request-Id') ?? ''),
        started: clockOf(sandbox).now(),
        method,
        path,
        url: ctx.url,
        rawRequestHeaders: ctx.req.rawHeaders,
        hasBody: hasBody(ctx.req),
      },
      reading,
      // The fault applied so far, as a pending entry shows it: the request's own state, until it ends.
      ctx.state,
    )
    const place = journal.arrive(sandbox, request)
    const startedAt = performance.now()
    // Most requests have no body: nothing to tap.
    const tap = request.hasBody ? tapBody(ctx.req, ctx.res, JOURNAL_BODY_BYTES) : undefined
    /** What went on the wire, which a fault may have cut short: its headers as sent, its body as the entry shows it. */
    const answer = (): { readonly headers: HeaderSource; readonly body: HeldBody } => {
      const truncated = ctx.state.truncated
      if (truncated !== undefined) return { headers: headersIn(truncated.headers), body: answerBody(truncated.body, redact) }
      if (!ctx.res.headersSent) return { headers: headersIn({}), body: NO_BODY }
      return { headers: headersOfAnswer(ctx.res), body: ctx.method === 'HEAD' ? NO_BODY : answerBody(ctx.body, redact) }
    }
    let ended = false
    /** Files how the request ended, once: `whole` when its answer was sent whole, not when its client left or its connection closed first. */
    const end = (whole: boolean): void => {
      if (ended) return
      ended = true
      stopWaiting()
      const durationMs = Math.round((performance.now() - startedAt) * 1000) / 1000
      const fault = ctx.state.fault ?? null
      // A truncated answer always sends its status line whole.
      const status = ctx.res.headersSent || ctx.state.truncated !== undefined ? ctx.res.statusCode : null
      const state = BREAKING_FAULTS.includes(ctx.state.fault) ? 'reset' : whole ? 'answered' : 'abandoned'
      const response = answer()
      // The route routing chose, when the request got that far; otherwise (a 429, a refused credential) the router is asked.
      const routed = (ctx as Partial<Pick<RouterContext, 'routerName'>>).routerName
      const operation = routed === undefined ? operationOf(method, path) : isOperation(routed) ? routed : null
      const file = (): void => {
        settle(request, {
          operation,
          state,
          status,
          durationMs,
          fault,
          requestBody: requestBody(ctx.request.rawBody, tap, redact),
          responseHeaders: response.headers,
          responseBody: response.body,
        })
        place.file()
      }
      if (tap === undefined) file()
      else tap.whenTapped(file)
    }
    const stopWaiting = whenClientLeaves(ctx.req.socket, () => end(false))
    // 'close' follows 'finish' (the answer sent whole) or a connection closed first: one listener tells both.
    ctx.res.on('close', () => end(ctx.res.writableFinished))
    // The rest of the request's promise as it is: nothing here waits for it.
    return next()
  }
}

/** Keeps each request of a sandbox (an authenticated request outside /v1/sandbox/) in its journal. */
export const journalRequests =
  (keep: KeepRequest): Middleware<FaultState> =>
  (ctx, next) => {
    const sandbox = ctx.state.client?.scope
    return sandbox === undefined || SANDBOX_PATHS.test(ctx.path) ? next() : keep(ctx, sandbox, next)
  }
