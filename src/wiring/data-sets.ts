import type * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import type { Client } from '../domain/authenticator.js'
import type { Clock } from '../domain/clock.js'
import type { StoreError } from '../domain/errors.js'
import type { StorePorts } from './store-ports.js'

/** A sandbox's clock: real time plus every advance of the sandbox since it was made or last reset. */
export interface SandboxClock extends Clock {
  /** How far ahead of real time it runs: the sum of those advances. */
  readonly advancedMs: () => number
}

/**
 * Per-key data sets, named by the key's scope. Like every store call, open, reset, drop and
 * advance fail with StoreUnavailable or StoreFailed (see PetRepository). Each starts from the seed
 * the first time it is opened; reset puts it back there: its ids start again, its idempotency
 * records are gone and its clock reads real time again. Drop forgets it, so that the store holds
 * nothing more for it until it is opened again.
 *
 * Each sandbox has a clock, which everything time-dependent in it reads: its idempotency leases and
 * records, and its rate-limit windows (the store's counter counts a scope on the clock of the
 * sandbox of that name). `clock` answers it live: a reading follows every later advance and reset.
 * `advance` moves one sandbox's clock forward by `ms`, never back: it is given only `ms` >= 0 (HTTP
 * refuses the rest). test/ports/sandbox-space.contract.ts states the rest.
 */
export interface SandboxSpace {
  readonly open: (sandbox: string) => TE.TaskEither<StoreError, StorePorts>
  readonly reset: (sandbox: string) => TE.TaskEither<StoreError, void>
  readonly drop: (sandbox: string) => TE.TaskEither<StoreError, void>
  readonly clock: (sandbox: string) => SandboxClock
  readonly advance: (sandbox: string, ms: number) => TE.TaskEither<StoreError, void>
}

/** No key was made: `max` made keys are open; the least recently used one expires in `retryAfterSeconds` unless it is used. */
interface MadeKeysFull {
  readonly max: number
  readonly retryAfterSeconds: number
}

export interface MadeKeys {
  /** How long a made key may go unused before it expires. */
  readonly idleSeconds: number
  /** A new key and who it is, unless `max` made keys are open (expired ones count until `sweep` ends them). */
  readonly make: () => E.Either<MadeKeysFull, { readonly key: string; readonly client: Client }>
  /** Who an open made key is, or undefined for any other key; the key's idle time starts again. */
  readonly find: (apiKey: string) => Client | undefined
  /** Ends the made key of this scope at once; false when no made key of this scope is open. */
  readonly end: (scope: string) => boolean
  /** Ends every made key idle for `idleSeconds` or longer, and answers their scopes. */
  readonly sweep: () => ReadonlyArray<string>
  /** Whether a scope is a made key's, open or ended. */
  readonly isMade: (scope: string) => boolean
  /** Whether a scope may still be used: a configured key's always, a made key's until it ends. */
  readonly isOpen: (scope: string) => boolean
  /** How many made keys are open: what `max` bounds. */
  readonly size: () => number
}
