import type * as TE from 'fp-ts/TaskEither'
import type { Client } from '../domain/authenticator.js'
import type { StoreError } from '../domain/errors.js'
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

/** Per-key sandboxes as HTTP needs them: the caller's use cases, and putting its sandbox back. */
export interface Sandboxes {
  readonly useCasesFor: (client: Client) => TE.TaskEither<StoreError, PetUseCases>
  readonly reset: (client: Client) => TE.TaskEither<StoreError, void>
}
