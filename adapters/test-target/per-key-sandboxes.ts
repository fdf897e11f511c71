import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import type { Client } from '../../src/domain/authenticator.js'
import type { StoreError } from '../../src/domain/errors.js'
import { type PetUseCases, petUseCases } from '../../src/domain/use-cases.js'
import type { SandboxSpace } from '../../src/ports/sandboxes.js'
import type { StorePorts } from '../../src/ports/store.js'
import { delayableInserts } from './insert-delay.js'

/** Per-key sandboxes as the test target needs them: the caller's use cases, and putting its sandbox back. */
export interface Sandboxes {
  readonly useCasesFor: (client: Client) => TE.TaskEither<StoreError, PetUseCases>
  readonly reset: (client: Client) => TE.TaskEither<StoreError, void>
}

/**
 * PETSTORE_SANDBOXES=per-key: each API key works in a sandbox of its own, named by the key's scope
 * (a SHA-256 of the key, never the key). The domain is unchanged: the same use cases are bound to
 * the sandbox's ports, once per version of the sandbox.
 */
export const perKeySandboxes = (space: SandboxSpace): Sandboxes => {
  const bound = new WeakMap<StorePorts, PetUseCases>()
  const useCasesOf = (ports: StorePorts): PetUseCases => {
    // A forced delay of a create with an Idempotency-Key runs between the claim and the insert.
    const useCases = bound.get(ports) ?? petUseCases(delayableInserts(ports))
    bound.set(ports, useCases)
    return useCases
  }
  return {
    useCasesFor: (client) => pipe(space.open(client.scope), TE.map(useCasesOf)),
    reset: (client) => space.reset(client.scope),
  }
}
