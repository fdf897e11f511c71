import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { type MadeKeys, madeKeys as madeKeyRegistry } from '../../adapters/auth/made-keys.js'
import { delayableInserts } from '../../adapters/http/insert-delay.js'
import type { Client } from '../domain/authenticator.js'
import { type StoreError, type Unauthorized, unauthorized } from '../domain/errors.js'
import { type PetUseCases, petUseCases } from '../domain/use-cases.js'
import type { ConfiguredSandbox, MadeSandbox, SandboxLimitReached, Sandboxes, SandboxSpace } from '../ports/sandboxes.js'
import type { StorePorts } from '../ports/store.js'

const refused = TE.left(unauthorized('invalid'))
const CONFIGURED: ConfiguredSandbox = { _tag: 'ConfiguredSandbox' }

/**
 * PETSTORE_SANDBOXES=per-key: each API key works in a sandbox of its own, named by the key's scope
 * (a SHA-256 of the key, never the key). The domain is unchanged: the same use cases are bound to
 * the sandbox's ports, once per version of the sandbox.
 *
 * Sandboxes are also made at run time, each with a key of its own from `made`. One that ends (asked
 * to, or expired) is dropped from the space at once and `onEnd` is told; expired ones are found
 * without a timer, each time a key is authenticated or a sandbox made. A request of a sandbox that
 * ended while it was on its way finds it closed: nothing is opened or reset for it again.
 */
export const perKeySandboxes = (space: SandboxSpace, made: MadeKeys = madeKeyRegistry()): Sandboxes => {
  const bound = new WeakMap<StorePorts, PetUseCases>()
  const useCasesOf = (ports: StorePorts): PetUseCases => {
    // A forced delay of a create with an Idempotency-Key runs between the claim and the insert.
    const useCases = bound.get(ports) ?? petUseCases(delayableInserts(ports))
    bound.set(ports, useCases)
    return useCases
  }
  const listeners: Array<(sandbox: string) => void> = []
  /** What ends with a made sandbox: what is kept for it beside the store (told to `onEnd`), then its data. */
  const forget =
    (sandbox: string): TE.TaskEither<StoreError, void> =>
    () => {
      for (const listener of listeners) listener(sandbox)
      return space.drop(sandbox)()
    }
  /**
   * Frees the sandboxes that have expired. Their keys are gone already, so nothing can reach them: a
   * drop that failed only leaves memory to the store, and is no reason to fail the request that
   * happened to find them (the embedded store's drop never fails).
   */
  const sweep = async (): Promise<void> => {
    for (const sandbox of made.sweep()) await forget(sandbox)()
  }
  /** `task`, unless the client's sandbox has ended since the client was authenticated. */
  const whileOpen =
    <A>(client: Client, task: () => TE.TaskEither<StoreError, A>): TE.TaskEither<StoreError | Unauthorized, A> =>
    () =>
      made.isOpen(client.scope) ? task()() : refused()
  return {
    useCasesFor: (client) => whileOpen(client, () => pipe(space.open(client.scope), TE.map(useCasesOf))),
    reset: (client) => whileOpen(client, () => space.reset(client.scope)),
    madeKeys: {
      authenticate: (apiKey) =>
        pipe(
          TE.fromTask(sweep),
          TE.flatMap(() => {
            const client = made.find(apiKey)
            return client === undefined ? refused : TE.right(client)
          }),
        ),
    },
    make: () =>
      pipe(
        TE.fromTask(sweep),
        TE.flatMapEither(() => made.make()),
        TE.bimap(
          ({ max, retryAfterSeconds }): SandboxLimitReached => ({ _tag: 'SandboxLimitReached', max, retryAfterSeconds }),
          ({ key, client }): MadeSandbox => ({ key, client, idleSeconds: made.idleSeconds }),
        ),
      ),
    end: (client) => () => {
      if (!made.isMade(client.scope)) return TE.left(CONFIGURED)()
      // Ended meanwhile, by another request or by expiry: the key is no longer valid.
      if (!made.end(client.scope)) return refused()
      return forget(client.scope)()
    },
    isOpen: (sandbox) => made.isOpen(sandbox),
    onEnd: (listener) => void listeners.push(listener),
  }
}
