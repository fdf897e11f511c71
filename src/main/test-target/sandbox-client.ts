import * as E from 'fp-ts/Either'
import {
  call,
  Clock,
  Count,
  Entries,
  exchange,
  FaultScript,
  Made,
  nextPageOf,
  NoBody,
  queryOf,
  Report,
  ServiceError,
} from './sandbox-exchange.js'
import {
  type ConnectOptions,
  type FaultRule,
  type JournalEntry,
  type JournalFilters,
  type MadeSandbox,
  PetStoreError,
  type Sandbox,
  type SandboxReport,
} from './sandbox-types.js'

/**
 * The most entries a journal keeps, and so a page of it holds: the contract's maximum of `limit` on
 * GET /v1/sandbox/requests (docs/openapi-test-target.yaml), which the generated types do not carry.
 */
const WHOLE_JOURNAL = 1000

/**
 * Every entry that matches `filters`, or the newest `limit`: pages of the most entries a page holds
 * (WHOLE_JOURNAL, fewer when they pass a page's bytes), each page's `Link` followed to the next.
 */
const journalOf = async (
  url: string,
  key: string,
  { limit, ...filters }: JournalFilters & { readonly limit?: number },
): Promise<ReadonlyArray<JournalEntry>> => {
  const entries: JournalEntry[] = []
  let path: string | undefined = `/v1/sandbox/requests${queryOf({ ...filters, limit: Math.min(limit ?? WHOLE_JOURNAL, WHOLE_JOURNAL) })}`
  while (path !== undefined && entries.length < (limit ?? Number.POSITIVE_INFINITY)) {
    const page = await exchange(url, key, { method: 'GET', path, expected: 200, codec: Entries })
    // The entries are the contract's JournalEntry objects, checked here for the parts named in Entries.
    entries.push(...(page.value as unknown as ReadonlyArray<JournalEntry>))
    path = nextPageOf(page.headers)
  }
  return entries.slice(0, limit)
}

/** A count that is exact, or an error that says why it cannot be. */
const countOf = async (url: string, key: string, filters: JournalFilters): Promise<number> => {
  const { count, complete } = await call(url, key, {
    method: 'GET',
    path: `/v1/sandbox/requests/count${queryOf(filters)}`,
    expected: 200,
    codec: Count,
  })
  if (complete) return count
  const since = filters.since === undefined ? 'since it was last cleared' : `after sequence ${filters.since}`
  throw new Error(
    `count: ${count} entries match, but the journal no longer keeps every request ${since} ` +
      `(it keeps the newest ${WHOLE_JOURNAL}, fewer when they fill its part of the sandbox's budget), so the count may be short: ` +
      'clear the journal (DELETE /v1/sandbox/requests) before the requests a test counts, or count since a later sequence',
  )
}

/** The sandbox of `key` on the pet store at `url`, which is not checked to have one (`connect` checks). */
export const sandboxOf = (url: string, key: string): Sandbox => ({
  url,
  key,
  setFaults: async (rules) =>
    // Checked for each rule's operation, like the journal's entries.
    (await call(url, key, {
      method: 'PUT',
      path: '/v1/sandbox/faults',
      expected: 200,
      codec: FaultScript,
      body: rules,
    })) as unknown as FaultRule[],
  faults: async () =>
    (await call(url, key, { method: 'GET', path: '/v1/sandbox/faults', expected: 200, codec: FaultScript })) as unknown as FaultRule[],
  clearFaults: () => call(url, key, { method: 'DELETE', path: '/v1/sandbox/faults', expected: 204, codec: NoBody }),
  reset: () => call(url, key, { method: 'POST', path: '/v1/sandbox/reset', expected: 204, codec: NoBody }),
  journal: (filters = {}) => journalOf(url, key, filters),
  count: (filters = {}) => countOf(url, key, filters),
  clearJournal: () => call(url, key, { method: 'DELETE', path: '/v1/sandbox/requests', expected: 204, codec: NoBody }),
  report: async () =>
    (await call(url, key, { method: 'GET', path: '/v1/sandbox/report', expected: 200, codec: Report })) as unknown as SandboxReport,
  clock: () => call(url, key, { method: 'GET', path: '/v1/sandbox/clock', expected: 200, codec: Clock }),
  advanceClock: (ms) => call(url, key, { method: 'POST', path: '/v1/sandbox/clock', expected: 200, codec: Clock, body: { advance: ms } }),
  newSandbox: async () =>
    madeSandboxOf(url, (await call(url, key, { method: 'POST', path: '/v1/sandboxes', expected: 201, codec: Made })).key),
})

const madeSandboxOf = (url: string, key: string): MadeSandbox => {
  let ended: Promise<void> | undefined
  const end = (): Promise<void> => (ended ??= call(url, key, { method: 'DELETE', path: '/v1/sandbox', expected: 204, codec: NoBody }))
  return { ...sandboxOf(url, key), end, [Symbol.asyncDispose]: end }
}

/**
 * The sandbox of `key` on a pet store started anywhere (the bin, a container, `startPetStore` in
 * another process), once it has answered that its test target is on and that it takes the key.
 */
export const connect = async ({ url, key }: ConnectOptions): Promise<Sandbox> => {
  const base = url.replace(/\/+$/, '')
  const answer = await fetch(`${base}/v1/sandbox/clock`, { headers: { authorization: `Bearer ${key}` } }).catch((error: unknown) => {
    throw new Error(
      `connect: cannot reach ${base}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
    )
  })
  if (answer.status === 200) {
    await answer.body?.cancel()
    return sandboxOf(base, key)
  }
  const error = ServiceError.decode(await answer.json().catch(() => undefined))
  const code = E.isRight(error) ? error.right.code : undefined
  if (answer.status === 404 && code === 'route_not_found')
    throw new PetStoreError(
      `connect: the pet store at ${base} has its test target off, so it has no sandbox to drive: start it with PETSTORE_TEST_TARGET=on`,
      404,
      code,
    )
  if (answer.status === 401)
    throw new PetStoreError(`connect: the pet store at ${base} does not take this key (401 ${code ?? ''})`, 401, code)
  throw new PetStoreError(
    `connect: ${base}/v1/sandbox/clock answered ${answer.status}${E.isRight(error) ? ` ${error.right.code}: ${error.right.message}` : ''}: is it a pet store?`,
    answer.status,
    code,
  )
}
