import type Router from '@koa/router'
import * as E from 'fp-ts/Either'
import type { Context, Middleware } from 'koa'
import type { Client } from '../../src/domain/authenticator.js'
import { invalidParameter, unauthorized } from '../../src/domain/errors.js'
import { safeIntegerText } from '../../src/domain/integer-text.js'
import { jsonBytes } from '../../src/store/meter.js'
import type { Sandboxes } from './per-key-sandboxes.js'
import type { AuthState } from '../http/auth.js'
import { sendFailure } from '../http/error-response.js'
import { JSON_TYPE } from '../http/etag.js'
import type { UseCasesState } from '../http/routes.js'
import type { ContractCoverage } from './contract-coverage.js'
import { decodeScript } from './script-decoding.js'
import type { FaultScripts } from './fault-script.js'
import { invalidFaultScript } from './failures.js'
import { jsonBody, type JsonBodyState } from '../http/json-body.js'
import { readJournalFilter } from './journal-filter.js'
import { JOURNAL_SIZE } from './journal-ring.js'
import type { JournalEntry } from './journal-entry.js'
import type { RequestJournal } from './request-journal.js'

export const SANDBOX_RESET_PATH = '/v1/sandbox/reset'

/** The use cases of the caller's sandbox, for the pet routes. */
type SandboxState = UseCasesState

/**
 * Chooses the caller's sandbox once, as the request meets the ports, so that the whole request
 * (however long it takes, whatever a reset does meanwhile) works on one version of it.
 */
export const chooseSandbox =
  (sandboxes: Sandboxes): Middleware<SandboxState> =>
  (ctx, next) => {
    const client = ctx.state.client
    if (client === undefined) return next()
    // On every request: a promise chained, not an async function (docs/adr/0106-use-cases-are-fp-ts-pipelines-whose-per-call-steps-are-plain.md).
    return sandboxes
      .useCasesFor(client)()
      .then((useCases) => {
        if (E.isLeft(useCases)) return sendFailure(ctx, useCases.left)
        ctx.state.useCases = useCases.right
        return next()
      })
  }

interface SandboxRoutesOptions {
  readonly sandboxes: Sandboxes
  readonly journal: RequestJournal
  /** What the sandbox's requests reached of the contract: a reset starts it again. */
  readonly coverage: ContractCoverage
  /** Each sandbox's fault script, when faults are on too. */
  readonly scripts?: FaultScripts
  readonly maxBodyBytes: number
  /** The most a sandbox's fault script may take (its part of the sandbox's budget). */
  readonly scriptBytes: number
}

export const SANDBOX_FAULTS_PATH = '/v1/sandbox/faults'
export const SANDBOX_REQUESTS_PATH = '/v1/sandbox/requests'
export const SANDBOX_REQUEST_COUNT_PATH = '/v1/sandbox/requests/count'
const DEFAULT_JOURNAL_LIMIT = 20
/** The most bytes of JSON a page of GET /v1/sandbox/requests holds; an entry's bounds keep each far below it. */
export const JOURNAL_PAGE_BYTES = 256 * 1024

type QueryValue = string | ReadonlyArray<string> | undefined

/** `limit` of GET /v1/sandbox/requests: 1 to JOURNAL_SIZE, 20 when absent; anything else is refused. */
const journalLimitOf = (value: QueryValue): E.Either<ReadonlyArray<string>, number> => {
  if (value === undefined) return E.right(DEFAULT_JOURNAL_LIMIT)
  const limit = safeIntegerText(value, 1, JOURNAL_SIZE)
  return limit !== undefined ? E.right(limit) : E.left([`limit: must be an integer from 1 to ${JOURNAL_SIZE}`])
}

/** `before` of GET /v1/sandbox/requests: a sequence number, the page's entries are older than; none when absent. */
const journalBeforeOf = (value: QueryValue): E.Either<ReadonlyArray<string>, number | undefined> => {
  if (value === undefined) return E.right(undefined)
  const before = safeIntegerText(value, 1, Number.MAX_SAFE_INTEGER)
  return before !== undefined ? E.right(before) : E.left([`before: must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`])
}

/**
 * A page of a journal read: the first of `entries` (newest first) up to `limit` of them and
 * JOURNAL_PAGE_BYTES of JSON (but always the first), and the sequence number the next page starts
 * before when entries are left.
 */
const journalPage = (entries: Iterable<JournalEntry>, limit: number): { readonly json: string; readonly next?: number } => {
  const page: string[] = []
  // The brackets, then each entry and its comma.
  let bytes = 2
  let last = 0
  for (const entry of entries) {
    const json = JSON.stringify(entry)
    const size = Buffer.byteLength(json) + 1
    if (page.length === limit || (page.length > 0 && bytes + size > JOURNAL_PAGE_BYTES)) return { json: `[${page.join(',')}]`, next: last }
    page.push(json)
    bytes += size
    last = entry.sequence
  }
  return { json: `[${page.join(',')}]` }
}

/**
 * The sandbox's own routes: POST /v1/sandbox/reset puts the caller's sandbox back to its seed (or
 * empty) and clears its journal, fault script and contract coverage (204); GET and DELETE /v1/sandbox/requests read
 * (filtered) and clear its journal, GET /v1/sandbox/requests/count counts its entries that match the
 * same filters; with faults on, PUT, GET and DELETE /v1/sandbox/faults replace, read and clear
 * its fault script. Authentication runs before every /v1 route, so a client is always known here.
 */
export const registerSandboxRoutes = (
  router: Router,
  { sandboxes, journal, coverage, scripts, maxBodyBytes, scriptBytes }: SandboxRoutesOptions,
): void => {
  const sandboxOf = (ctx: Context): Client | undefined => (ctx.state as AuthState).client

  router.post('resetSandbox', SANDBOX_RESET_PATH, async (ctx) => {
    const client = sandboxOf(ctx)
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    const result = await sandboxes.reset(client)()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    journal.clear(client.scope)
    scripts?.clear(client.scope)
    coverage.clear(client.scope)
    ctx.status = 204
  })

  const filterOptions = { faults: scripts !== undefined }

  router.get(SANDBOX_REQUESTS_PATH, (ctx) => {
    const client = sandboxOf(ctx)
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    const filter = readJournalFilter(ctx.query, { ...filterOptions, others: ['limit', 'before'] })
    const limit = journalLimitOf(ctx.query.limit)
    const before = journalBeforeOf(ctx.query.before)
    const problems = [limit, before, filter].flatMap((read) => (E.isLeft(read) ? read.left : []))
    if (E.isLeft(filter) || E.isLeft(limit) || E.isLeft(before)) return sendFailure(ctx, invalidParameter(problems))
    const page = journalPage(journal.list(client.scope, filter.right, before.right), limit.right)
    if (page.next !== undefined) {
      const query = new URLSearchParams(ctx.querystring)
      query.set('before', String(page.next))
      ctx.set('Link', `<${SANDBOX_REQUESTS_PATH}?${query.toString()}>; rel="next"`)
    }
    ctx.type = JSON_TYPE
    ctx.body = page.json
  })

  router.get(SANDBOX_REQUEST_COUNT_PATH, (ctx) => {
    const client = sandboxOf(ctx)
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    const filter = readJournalFilter(ctx.query, { ...filterOptions, others: [] })
    if (E.isLeft(filter)) return sendFailure(ctx, invalidParameter(filter.left))
    ctx.type = JSON_TYPE
    ctx.body = JSON.stringify(journal.count(client.scope, filter.right))
  })

  router.delete(SANDBOX_REQUESTS_PATH, (ctx) => {
    const client = sandboxOf(ctx)
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    journal.clear(client.scope)
    ctx.status = 204
  })

  if (scripts === undefined) return

  router.put<JsonBodyState>(SANDBOX_FAULTS_PATH, ...jsonBody(maxBodyBytes, 'a JSON array of fault rules'), (ctx) => {
    const client = sandboxOf(ctx)
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    const script = decodeScript(ctx.state.body)
    if (E.isLeft(script)) return sendFailure(ctx, invalidFaultScript(script.left))
    const bytes = jsonBytes(script.right)
    if (bytes > scriptBytes)
      return sendFailure(
        ctx,
        invalidFaultScript([
          `it takes ${bytes} bytes of the sandbox's memory, more than the ${scriptBytes} a script may: fewer rules, or smaller whens and answers`,
        ]),
      )
    scripts.replace(client.scope, script.right)
    ctx.type = JSON_TYPE
    ctx.body = JSON.stringify(scripts.get(client.scope))
  })

  router.get(SANDBOX_FAULTS_PATH, (ctx) => {
    const client = sandboxOf(ctx)
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    ctx.type = JSON_TYPE
    ctx.body = JSON.stringify(scripts.get(client.scope))
  })

  router.delete(SANDBOX_FAULTS_PATH, (ctx) => {
    const client = sandboxOf(ctx)
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    scripts.clear(client.scope)
    ctx.status = 204
  })
}
