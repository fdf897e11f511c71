import * as E from 'fp-ts/Either'
import * as t from 'io-ts'
import pino from 'pino'
import type { JournalEntry, JournalState } from '../../../adapters/test-target/journal-entry.js'
import { JOURNAL_SIZE } from '../../../adapters/test-target/journal-ring.js'
import type { SandboxReport } from '../../../adapters/test-target/sandbox-report.js'
import { readConfig } from '../config.js'
import { generateKey } from '../main.js'
import { startService } from '../service.js'
import { openStore } from '../store.js'

export type { JournalEntry, SandboxReport }

/** How `startPetStore` starts the service: with the whole test target on (PETSTORE_TEST_TARGET=on), faults included. */
export interface PetStoreOptions {
  /** PETSTORE_SEED: `demo`, or the path of a JSON file of createPet bodies. Default: none. */
  readonly seed?: string
}

/**
 * Which journal entries to take, as the query of `GET /v1/sandbox/requests` and of its `/count`:
 * the contract says what each filter matches and what it accepts.
 */
export interface JournalFilters {
  readonly method?: string
  readonly path?: string
  readonly operation?: string
  readonly state?: JournalState
  readonly status?: number
  readonly fault?: string
  /** `name`, or `name:value`. */
  readonly header?: string
  /** Entries after this sequence number. */
  readonly since?: number
}

/** A sandbox of the running service: its API key, and what the service recorded of its requests. */
export interface Sandbox {
  readonly key: string
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
  /**
   * `GET /v1/sandbox/report`: what the client did that it should not have (`findings`) or may not
   * have meant (`warnings`), the deprecated operations it called, and what of the contract it reached.
   */
  readonly report: () => Promise<SandboxReport>
  /** `POST /v1/sandbox/clock`: moves the sandbox's clock forward by `ms`, and answers it. */
  readonly advanceClock: (ms: number) => Promise<SandboxClockReading>
}

/** A sandbox's clock, as `/v1/sandbox/clock` answers it. */
export interface SandboxClockReading {
  /** The sandbox's time, in RFC 3339. */
  readonly now: string
  /** How far ahead of real time it runs. */
  readonly advancedMs: number
}

/** The service running in this process, and the sandbox of its own key. */
export interface PetStore extends Sandbox {
  /** Where it listens, such as `http://127.0.0.1:40123`; the API is under `/v1`. */
  readonly url: string
  /** `POST /v1/sandboxes`: a new, empty sandbox and its key. */
  readonly newSandbox: () => Promise<Sandbox>
  /** Stops it: the requests in flight are answered first. */
  readonly close: () => Promise<void>
}

const Entries = t.array(t.UnknownRecord)
const Judged = t.array(t.UnknownRecord)
const Report = t.type({
  journal: t.UnknownRecord,
  findings: Judged,
  warnings: Judged,
  deprecatedOperations: Judged,
  coverage: t.UnknownRecord,
})
const Count = t.type({ count: t.number, complete: t.boolean })
const NewSandbox = t.type({ key: t.string })
const ClockReading = t.type({ now: t.string, advancedMs: t.number })

/** The query of a journal read; undefined filters are left out. */
const queryOf = (filters: JournalFilters & { readonly limit?: number }): string => {
  const query = new URLSearchParams(
    Object.entries(filters).flatMap(([name, value]): Array<[string, string]> => (value === undefined ? [] : [[name, String(value)]])),
  )
  return query.size === 0 ? '' : `?${query.toString()}`
}

/**
 * Calls one operation of the service with `key` (and `body` as JSON, when given), and decodes its JSON answer with `codec`, beside
 * the answer's headers; any other status than `expected` is thrown with the error body the service answered (which never holds a key).
 */
const exchange = async <A>(
  url: string,
  key: string,
  method: string,
  path: string,
  expected: number,
  codec: t.Decoder<unknown, A>,
  body?: unknown,
): Promise<{ readonly value: A; readonly headers: Headers }> => {
  const headers = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
  const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const text = await response.text()
  if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
  const decoded = codec.decode(JSON.parse(text))
  if (E.isLeft(decoded)) throw new Error(`${method} ${path} answered what the contract does not say: ${text}`)
  return { value: decoded.right, headers: response.headers }
}

const call = async <A>(...args: Parameters<typeof exchange<A>>): Promise<A> => (await exchange(...args)).value

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
    const page = await exchange(url, key, 'GET', path, 200, Entries)
    // The entries are the contract's JournalEntry objects, checked here to be objects only.
    entries.push(...(page.value as unknown as ReadonlyArray<JournalEntry>))
    path = nextPageOf(page.headers)
  }
  return entries.slice(0, limit)
}

/** A count that is exact, or an error that says why it cannot be. */
const countOf = async (url: string, key: string, filters: JournalFilters): Promise<number> => {
  const { count, complete } = await call(url, key, 'GET', `/v1/sandbox/requests/count${queryOf(filters)}`, 200, Count)
  if (complete) return count
  const since = filters.since === undefined ? 'since it was last cleared' : `after sequence ${filters.since}`
  throw new Error(
    `count: ${count} entries match, but the journal no longer keeps every request ${since} ` +
      `(it keeps the newest ${JOURNAL_SIZE}, fewer when they fill its part of the sandbox's budget), so the count may be short: ` +
      'clear the journal (DELETE /v1/sandbox/requests) before the requests a test counts, or count since a later sequence',
  )
}

const sandboxOf = (url: string, key: string): Sandbox => ({
  key,
  journal: (filters = {}) => journalOf(url, key, filters),
  count: (filters = {}) => countOf(url, key, filters),
  // Checked here for its parts only, like the journal's entries.
  report: async () => (await call(url, key, 'GET', '/v1/sandbox/report', 200, Report)) as unknown as SandboxReport,
  advanceClock: (ms) => call(url, key, 'POST', '/v1/sandbox/clock', 200, ClockReading, { advance: ms }),
})

/**
 * Starts the service in this process, for a test suite: on a free port of 127.0.0.1, with the whole
 * test target (per-key sandboxes, faults), a key generated for it, a seed when asked, no metrics
 * and no log. It is composed as `npm start` composes it (readConfig, openStore, startService); no
 * setting is taken from the environment of the process.
 */
export const startPetStore = async (options: PetStoreOptions = {}): Promise<PetStore> => {
  const key = generateKey()
  const config = readConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      PETSTORE_API_KEYS: key,
      PETSTORE_TEST_TARGET: 'on',
      PETSTORE_METRICS: 'off',
      ...(options.seed === undefined ? {} : { PETSTORE_SEED: options.seed }),
    },
    generateKey,
  )
  if (E.isLeft(config)) throw new Error(`startPetStore: ${config.left.join('; ')}`)
  const store = await openStore(config.right.store, config.right.seed?.pets)
  if (E.isLeft(store)) throw new Error(`startPetStore: ${store.left}`)
  const started = await startService(config.right, store.right, pino({ level: 'silent' }))
  if (E.isLeft(started)) throw new Error(`startPetStore: cannot listen: ${started.left.code ?? started.left.message}`)
  const service = started.right
  return {
    ...sandboxOf(service.url, key),
    url: service.url,
    newSandbox: async () => sandboxOf(service.url, (await call(service.url, key, 'POST', '/v1/sandboxes', 201, NewSandbox)).key),
    close: service.close,
  }
}
