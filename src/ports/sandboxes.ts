import type * as TE from 'fp-ts/TaskEither'
import type { Authenticator, Client } from '../domain/authenticator.js'
import type { StoreError, Unauthorized } from '../domain/errors.js'
import type { PetUseCases } from '../domain/use-cases.js'
import type { StorePorts } from './store.js'

/**
 * Per-key data sets, named by the key's scope. Like every store call, open, reset and drop fail
 * with StoreUnavailable or StoreFailed (see PetRepository). Each starts from the seed the first time
 * it is opened; reset puts it back there: its ids start again and its idempotency records are gone.
 * Drop forgets it, so that the store holds nothing more for it until it is opened again.
 * test/ports/sandbox-space.contract.ts states the rest.
 */
export interface SandboxSpace {
  readonly open: (sandbox: string) => TE.TaskEither<StoreError, StorePorts>
  readonly reset: (sandbox: string) => TE.TaskEither<StoreError, void>
  readonly drop: (sandbox: string) => TE.TaskEither<StoreError, void>
}

/** A sandbox made at run time: its key, shown this once, and who that key is. */
export interface MadeSandbox {
  readonly key: string
  readonly client: Client
  /** How long it may go without a request before it ends. */
  readonly idleSeconds: number
}

/** No sandbox was made: `max` made ones are open; the least recently used ends in `retryAfterSeconds` unless it is used. */
export interface SandboxLimitReached {
  readonly _tag: 'SandboxLimitReached'
  readonly max: number
  readonly retryAfterSeconds: number
}

/** The sandbox of a configured key, which lasts as long as the configuration: it can be reset, never ended. */
export interface ConfiguredSandbox {
  readonly _tag: 'ConfiguredSandbox'
}

/**
 * Per-key sandboxes as HTTP needs them: the caller's use cases, putting its sandbox back, and making
 * and ending sandboxes with keys of their own. A made sandbox ends when asked or when it has gone
 * unused too long; its key is then refused (Unauthorized, even to a request that was authenticated
 * just before) and what it held is freed.
 */
export interface Sandboxes {
  readonly useCasesFor: (client: Client) => TE.TaskEither<StoreError | Unauthorized, PetUseCases>
  readonly reset: (client: Client) => TE.TaskEither<StoreError | Unauthorized, void>
  /** Knows the keys of the open made sandboxes, and no other key. */
  readonly madeKeys: Authenticator
  readonly make: () => TE.TaskEither<SandboxLimitReached, MadeSandbox>
  readonly end: (client: Client) => TE.TaskEither<ConfiguredSandbox | Unauthorized | StoreError, void>
  /** Whether anything may still be kept for this sandbox: a configured key's always, a made one's until it ends. */
  readonly isOpen: (sandbox: string) => boolean
  /** Calls `listener` with each made sandbox that ends, so that what is kept for it beside its store goes too. */
  readonly onEnd: (listener: (sandbox: string) => void) => void
}
