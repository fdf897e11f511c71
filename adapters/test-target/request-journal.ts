import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { Middleware } from 'koa'
import type { FaultState } from './faults.js'
import { type Redact, REDACTED } from '../http/key-redaction.js'

/** How many requests each sandbox's journal keeps: the newest. */
export const JOURNAL_SIZE = 100
/** The most of a request's or an answer's body an entry keeps. */
export const JOURNAL_BODY_BYTES = 4096
/** Requests to the sandboxes' own operations (make, end, reset, the journal, the script) are not kept. */
export const SANDBOX_PATHS = /^\/v1\/sandbox(?:es)?(?:\/|$)/

export interface JournalMessage {
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | null
}

/** One request of a sandbox, as GET /v1/sandbox/requests answers it. */
export interface JournalEntry {
  readonly id: string
  readonly time: string
  readonly method: string
  readonly path: string
  readonly status: number | null
  readonly durationMs: number
  readonly fault: string | null
  readonly request: JournalMessage
  readonly response: JournalMessage
}

export interface RequestJournal {
  readonly record: (sandbox: string, entry: JournalEntry) => void
  /** The newest `limit` entries, newest first. */
  readonly list: (sandbox: string, limit: number) => ReadonlyArray<JournalEntry>
  readonly clear: (sandbox: string) => void
}

/** The journals of every sandbox, in memory (sandboxes live in one process, on the embedded store). */
export const requestJournal = (): RequestJournal => {
  const journals = new Map<string, JournalEntry[]>()
  return {
    record: (sandbox, entry) => {
      const entries = journals.get(sandbox) ?? []
      entries.push(entry)
      if (entries.length > JOURNAL_SIZE) entries.splice(0, entries.length - JOURNAL_SIZE)
      journals.set(sandbox, entries)
    },
    list: (sandbox, limit) => (journals.get(sandbox) ?? []).slice(-limit).reverse(),
    clear: (sandbox) => void journals.delete(sandbox),
  }
}

/** A body as kept: text, every key in it redacted, at most JOURNAL_BODY_BYTES of it, null when empty. */
const bodyText = (body: unknown, redact: Redact): string | null => {
  const text = redact(
    typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : body == null ? '' : JSON.stringify(body),
  )
  if (text === '') return null
  const bytes = Buffer.from(text, 'utf8')
  return bytes.length <= JOURNAL_BODY_BYTES ? text : bytes.subarray(0, JOURNAL_BODY_BYTES).toString('utf8')
}

/** Header names in lower case, repeated ones joined, every key in them redacted. */
const headerRecord = (headers: IncomingHttpHeaders | OutgoingHttpHeaders, redact: Redact): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      redact(name.toLowerCase()),
      redact(Array.isArray(value) ? value.join(', ') : String(value ?? '')),
    ]),
  )

/** The request's headers; the credential never, whatever it holds: `Bearer [redacted]`. */
const requestHeaders = (headers: IncomingHttpHeaders, redact: Redact): Record<string, string> => ({
  ...headerRecord(headers, redact),
  ...(headers.authorization === undefined ? {} : { authorization: `Bearer ${REDACTED}` }),
})

export interface JournalOptions {
  /** Shows each configured API key as `[redacted]`, wherever it appears in an entry. */
  readonly redact: Redact
}

/**
 * Keeps each request of a sandbox (an authenticated request outside /v1/sandbox/) in its journal,
 * once its answer is sent or its connection closed: what the client sent, what it was answered (as
 * sent, after every middleware, an unexpected failure's 500 included; no body for a HEAD, and of a
 * truncated answer only what was sent), and the fault applied. A request whose connection was reset
 * before an answer has no status and no answer. No configured key is kept, wherever it was sent:
 * a key in a header, the URL or a body, or an id or body the answer echoed, is `[redacted]`.
 */
export const journalRequests = (journal: RequestJournal, { redact }: JournalOptions): Middleware<FaultState> => {
  return async (ctx, next) => {
    const started = Date.now()
    const startedAt = performance.now()
    let recorded = false
    /** What went on the wire, which a fault may have cut short. */
    const answer = (): JournalMessage => {
      const truncated = ctx.state.truncated
      if (truncated !== undefined) return { headers: headerRecord(truncated.headers, redact), body: bodyText(truncated.body, redact) }
      if (!ctx.res.headersSent) return { headers: {}, body: null }
      return { headers: headerRecord(ctx.res.getHeaders(), redact), body: ctx.method === 'HEAD' ? null : bodyText(ctx.body, redact) }
    }
    const record = (): void => {
      const sandbox = ctx.state.client?.scope
      if (recorded || sandbox === undefined || SANDBOX_PATHS.test(ctx.path)) return
      recorded = true
      journal.record(sandbox, {
        id: redact(String(ctx.res.getHeader('X-Request-Id') ?? '')),
        time: new Date(started).toISOString(),
        method: ctx.method,
        path: redact(ctx.url),
        // A truncated answer always sends its status line whole.
        status: ctx.res.headersSent || ctx.state.truncated !== undefined ? ctx.res.statusCode : null,
        durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000,
        fault: ctx.state.fault ?? null,
        request: { headers: requestHeaders(ctx.req.headers, redact), body: bodyText(ctx.request.rawBody, redact) },
        response: answer(),
      })
    }
    ctx.res.once('finish', record)
    ctx.res.once('close', record)
    await next()
  }
}
