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
