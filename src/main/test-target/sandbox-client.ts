import * as E from 'fp-ts/Either'
import * as t from 'io-ts'
import { JOURNAL_SIZE } from '../../../adapters/test-target/journal-ring.js'
import type { components, operations } from './sandbox-contract.js'

// The types of `petstore-service/testing`, each the contract's own (src/main/test-target/sandbox-contract.ts is
// generated from it), so that they cannot drift from what the service answers and accepts. This file's
// declarations import nothing else: a consumer compiles them with `@types/node` alone.

/** A rule of a sandbox's fault script (`PUT /v1/sandbox/faults`): the contract's `FaultRule`. */
export type FaultRule = components['schemas']['FaultRule']
/** One request of a sandbox's journal, and its answer: the contract's `JournalEntry`. */
export type JournalEntry = components['schemas']['JournalEntry']
/** Where a journal entry's request stands: the contract's `JournalState`. */
export type JournalState = components['schemas']['JournalState']
/** What a sandbox's client did wrong, may have meant, and reached: the contract's `SandboxReport`. */
export type SandboxReport = components['schemas']['SandboxReport']
/** A sandbox's clock, as `/v1/sandbox/clock` answers it: the contract's `SandboxClock`. */
export type SandboxClock = components['schemas']['SandboxClock']
/** Any JSON value, such as a rule's `when.body` members and an `answer`'s `body`. */
export type JsonValue = components['schemas']['JsonValue']
/**
 * Which journal entries to take: the query of `GET /v1/sandbox/requests/count`, which the journal's
 * read takes too; the contract says what each filter matches and what it accepts.
 */
export type JournalFilters = NonNullable<operations['countSandboxRequests']['parameters']['query']>

/** An answer that was not the one a method expects: its status, and the service's Error `code` when it gave one. */
export class PetStoreError extends Error {
  override readonly name = 'PetStoreError'
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/** The sandbox of one API key on a pet store with its test target on, wherever it runs. */
export interface Sandbox {
  /** Where the pet store listens, such as `http://127.0.0.1:40123`; the API is under `/v1`. */
  readonly url: string
  /** The sandbox's API key: send it as `Authorization: Bearer <key>`. */
  readonly key: string
  /** `PUT /v1/sandbox/faults`: replaces the sandbox's fault script with `rules`, and answers the script now in place. */
  readonly setFaults: (rules: ReadonlyArray<FaultRule>) => Promise<ReadonlyArray<FaultRule>>
  /** `GET /v1/sandbox/faults`: the rules of the script not yet used up, in order. */
  readonly faults: () => Promise<ReadonlyArray<FaultRule>>
  /** `DELETE /v1/sandbox/faults`: empties the fault script. */
  readonly clearFaults: () => Promise<void>
  /** `POST /v1/sandbox/reset`: the sandbox as it began (its pets, ids, keys' records, journal, script and clock). */
  readonly reset: () => Promise<void>
  /**
   * `GET /v1/sandbox/requests` with these filters, each page's `Link` followed: every matching entry
   * the journal keeps, newest first, or the newest `limit` of them.
   */
  readonly journal: (filters?: JournalFilters & { readonly limit?: number }) => Promise<ReadonlyArray<JournalEntry>>
  /**
   * `GET /v1/sandbox/requests/count` with these filters: how many entries match. Throws when the
   * count is not `complete` (the journal let go of a request it would have counted, since it was
   * cleared or since `since`), rather than answer a number that may be short.
   */
  readonly count: (filters?: JournalFilters) => Promise<number>
  /** `DELETE /v1/sandbox/requests`: empties the journal; the next request is numbered 1. */
  readonly clearJournal: () => Promise<void>
  /**
   * `GET /v1/sandbox/report`: what the client did that it should not have (`findings`) or may not
   * have meant (`warnings`), the deprecated operations it called, and what of the contract it reached.
   */
  readonly report: () => Promise<SandboxReport>
  /** `GET /v1/sandbox/clock`: the sandbox's time. */
  readonly clock: () => Promise<SandboxClock>
  /** `POST /v1/sandbox/clock`: moves the sandbox's clock forward by `ms`, and answers it. */
  readonly advanceClock: (ms: number) => Promise<SandboxClock>
  /** `POST /v1/sandboxes`: a new, empty sandbox with a key of its own, for one worker of a suite. */
  readonly newSandbox: () => Promise<MadeSandbox>
}

/** A sandbox made with `newSandbox`: `await using` ends it. */
export interface MadeSandbox extends Sandbox {
  /** `DELETE /v1/sandbox`: ends the sandbox and its key; once ended, again does nothing. */
  readonly end: () => Promise<void>
  readonly [Symbol.asyncDispose]: () => Promise<void>
}

/** Where `connect` finds a pet store: its URL (the API under `/v1`), and an API key it accepts. */
export interface ConnectOptions {
  readonly url: string
  readonly key: string
}

// What each answer is checked to be: its parts a caller reads first; the contract says the rest.
const FaultScript = t.array(t.type({ operation: t.string }))
const Entries = t.array(t.type({ sequence: t.number, method: t.string, path: t.string, state: t.string }))
const Judged = t.array(t.type({ sequences: t.array(t.number), message: t.string }))
const Report = t.type({
  journal: t.type({ kept: t.number, dropped: t.number }),
  findings: Judged,
  warnings: Judged,
  deprecatedOperations: Judged,
  coverage: t.type({ responses: t.UnknownArray, faults: t.UnknownArray, totals: t.UnknownRecord }),
})
const Count = t.type({ count: t.number, complete: t.boolean })
const Made = t.type({ key: t.string })
const Clock = t.type({ now: t.string, advancedMs: t.number })
const ServiceError = t.type({ code: t.string, message: t.string })
const NoBody = new t.Type<undefined>(
  'no body',
  (value): value is undefined => value === undefined,
  (value, context) => (value === undefined ? t.success(undefined) : t.failure(value, context)),
  () => undefined,
)

/** The query of a journal read; undefined filters are left out, each `header` given is sent. */
const queryOf = (filters: JournalFilters & { readonly limit?: number }): string => {
  const query = new URLSearchParams(
    Object.entries(filters).flatMap(
      ([name, value]: [string, string | number | ReadonlyArray<string> | undefined]): Array<[string, string]> =>
        value === undefined ? [] : typeof value === 'object' ? value.map((each) => [name, each]) : [[name, String(value)]],
    ),
  )
  return query.size === 0 ? '' : `?${query.toString()}`
}

/** An operation of the service with one key: its method and path, the status it answers when it did what was asked, and the shape of that answer. */
interface Exchange<A> {
  readonly method: string
  readonly path: string
  readonly expected: number
  readonly codec: t.Decoder<unknown, A>
  readonly body?: unknown
}

/**
 * Calls one operation of the service with `key`, and decodes its answer; any other status than the
 * one expected is thrown with the service's Error `message` (which never holds a key).
 */
const exchange = async <A>(url: string, key: string, call: Exchange<A>): Promise<{ readonly value: A; readonly headers: Headers }> => {
  const { method, path, expected, codec, body } = call
  const headers = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
  const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const text = await response.text()
  const json = ((): unknown => {
    try {
      return text === '' ? undefined : JSON.parse(text)
    } catch {
      return text
    }
  })()
  if (response.status !== expected) {
    const error = ServiceError.decode(json)
    const said = E.isRight(error) ? `${error.right.code}: ${error.right.message}` : text.slice(0, 200)
    throw new PetStoreError(
      `${method} ${path} answered ${response.status} ${said}`,
      response.status,
      E.isRight(error) ? error.right.code : undefined,
    )
  }
  const decoded = codec.decode(json)
  if (E.isLeft(decoded))
    throw new PetStoreError(`${method} ${path} answered what the contract does not say: ${text.slice(0, 200)}`, response.status, undefined)
  return { value: decoded.right, headers: response.headers }
}

const call = async <A>(url: string, key: string, exchanged: Exchange<A>): Promise<A> => (await exchange(url, key, exchanged)).value

/** The path the `Link: <...>; rel="next"` of a journal page names; undefined on the last page. */
const nextPageOf = (headers: Headers): string | undefined => /^<([^>]+)>; rel="next"$/.exec(headers.get('link') ?? '')?.[1]

/**
 * Every entry that matches `filters`, or the newest `limit`: pages of the most entries a page holds
 * (JOURNAL_SIZE, fewer when they pass a page's bytes), each page's `Link` followed to the next.
 */
const journalOf = async (
  url: string,
  key: string,
  { limit, ...filters }: JournalFilters & { readonly limit?: number },
): Promise<ReadonlyArray<JournalEntry>> => {
  const entries: JournalEntry[] = []
  let path: string | undefined = `/v1/sandbox/requests${queryOf({ ...filters, limit: Math.min(limit ?? JOURNAL_SIZE, JOURNAL_SIZE) })}`
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
      `(it keeps the newest ${JOURNAL_SIZE}, fewer when they fill its part of the sandbox's budget), so the count may be short: ` +
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
