import type * as TE from 'fp-ts/TaskEither'
import type { StoreError } from '../domain/errors.js'
import type { StorePorts } from './store.js'

/**
 * Per-key data sets, named by a hex id (the key's scope). Like every store call, open and reset fail
 * with StoreUnavailable or StoreFailed (see PetRepository). Each starts from the seed the first time
 * it is opened; reset puts it back there: its ids start again and its idempotency records are gone.
 * test/ports/sandbox-space.contract.ts states the rest.
 */
export interface SandboxSpace {
  readonly open: (sandbox: string) => TE.TaskEither<StoreError, StorePorts>
  readonly reset: (sandbox: string) => TE.TaskEither<StoreError, void>
}
