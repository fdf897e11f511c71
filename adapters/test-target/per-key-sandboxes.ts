import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import type { Authenticator, Client } from '../../src/domain/authenticator.js'
import { type StoreError, type Unauthorized, unauthorized } from '../../src/domain/errors.js'
import { type PetUseCases, petUseCases } from '../../src/domain/use-cases.js'
import type { DataSetClock, DataSets } from '../../src/store/data-sets.js'
import type { MadeKeys } from './made-keys.js'
import type { StorePorts } from '../../src/store/store-ports.js'
import type { ExtensionFailure } from '../http/http-failures.js'
import { CONFIGURED_SANDBOX, sandboxLimitReached } from './failures.js'
import { delayableInserts } from './insert-delay.js'

/** A sandbox made at run time: its key, shown this once, and who that key is. */
interface MadeSandbox {
  readonly key: string
  readonly client: Client
  /** How long it may go without a request before it ends. */
  readonly idleSeconds: number
}

/**
 * Per-key sandboxes as HTTP needs them: the caller's use cases, putting its sandbox back, its clock,
 * and making and ending sandboxes with keys of their own. A made sandbox ends when asked or when it
 * has gone unused too long (by real time, whatever its clock reads); its key is then refused
 * (Unauthorized, even to a request that was authenticated just before) and what it held is freed.
 */
export interface Sandboxes {
  readonly useCasesFor: (client: Client) => TE.TaskEither<StoreError | Unauthorized, PetUseCases>
  readonly reset: (client: Client) => TE.TaskEither<StoreError | Unauthorized, void>
  /** The sandbox's clock (DataSets.clock), read live. */
  readonly clockOf: (sandbox: string) => DataSetClock
  /** Moves the client's sandbox's clock forward by `ms` (>= 0); refused like reset once a made sandbox ended. */
  readonly advance: (client: Client, ms: number) => TE.TaskEither<StoreError | Unauthorized, void>
  /** Knows the keys of the open made sandboxes, and no other key. */
  readonly madeKeys: Authenticator
  /** Refused (sandboxLimitReached) while as many made sandboxes as allowed are open. */
  readonly make: () => TE.TaskEither<ExtensionFailure, MadeSandbox>
  /** Refused (CONFIGURED_SANDBOX) for a configured key's sandbox. */
  readonly end: (client: Client) => TE.TaskEither<ExtensionFailure | Unauthorized | StoreError, void>
  /** Whether anything may still be kept for this sandbox: a configured key's always, a made one's until it ends. */
  readonly isOpen: (sandbox: string) => boolean
  /** Calls `listener` with each made sandbox that ends, so that what is kept for it beside its store goes too. */
  readonly onEnd: (listener: (sandbox: string) => void) => void
}

const REFUSED = E.left(unauthorized('invalid'))
const refused = TE.fromEither(REFUSED)

/**
 * PETSTORE_TEST_TARGET=on: each API key works in a sandbox of its own, named by the key's scope
 * (a SHA-256 of the key, never the key). The domain is unchanged: the same use cases are bound to
 * the sandbox's ports, once per version of the sandbox.
 *
 * Sandboxes are also made at run time, each with a key of its own from `made`. One that ends (asked
 * to, or expired) is dropped from the space at once and `onEnd` is told; expired ones are found
 * without a timer, each time a key is authenticated or a sandbox made. A request of a sandbox that
 * ended while it was on its way finds it closed: nothing is opened or reset for it again.
 */
export const perKeySandboxes = (space: DataSets, made: MadeKeys): Sandboxes => {
  const bound = new WeakMap<StorePorts, PetUseCases>()
  const useCasesOf = (ports: StorePorts): PetUseCases => {
    const known = bound.get(ports)
    if (known !== undefined) return known
    // A forced delay of a create with an Idempotency-Key runs between the claim and the insert.
    const useCases = petUseCases(delayableInserts(ports))
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
   * Frees sandboxes that have expired. Their keys are gone already, so nothing can reach them: a
   * drop that failed only leaves memory to the store, and is no reason to fail the request that
   * happened to find them (the embedded store's drop never fails).
   */
  const forgetAll = async (expired: ReadonlyArray<string>): Promise<void> => {
    for (const sandbox of expired) await forget(sandbox)()
  }
  /** Ends and frees every made sandbox that has expired. */
  const sweep = (): Promise<void> => forgetAll(made.sweep())
  /** `task`, unless the client's sandbox has ended since the client was authenticated. */
  const whileOpen =
    <A>(client: Client, task: () => TE.TaskEither<StoreError, A>): TE.TaskEither<StoreError | Unauthorized, A> =>
    () =>
      made.isOpen(client.scope) ? task()() : refused()
  return {
    // Asked on every request of every key: a plain task (docs/adr/0106-use-cases-are-fp-ts-pipelines-whose-per-call-steps-are-plain.md).
    useCasesFor: (client) => async () => {
      if (!made.isOpen(client.scope)) return REFUSED
      const ports = await space.open(client.scope)()
      return E.isLeft(ports) ? ports : E.right(useCasesOf(ports.right))
    },
    reset: (client) => whileOpen(client, () => space.reset(client.scope)),
    clockOf: (sandbox) => space.clock(sandbox),
    advance: (client, ms) => whileOpen(client, () => space.advance(client.scope, ms)),
    madeKeys: {
      // Asked first on every request of every key: a plain task (docs/adr/0106-use-cases-are-fp-ts-pipelines-whose-per-call-steps-are-plain.md).
      authenticate: (apiKey) => () => {
        // Nearly always none has expired: then nothing is awaited before the answer.
        const ended = made.sweep()
        const client = made.find(apiKey)
        const answer = client === undefined ? REFUSED : E.right(client)
        return ended.length === 0 ? Promise.resolve(answer) : forgetAll(ended).then(() => answer)
      },
    },
    make: () =>
      pipe(
        TE.fromTask(sweep),
        TE.flatMapEither(() => made.make()),
        TE.bimap(
          ({ max, retryAfterSeconds }) => sandboxLimitReached(max, retryAfterSeconds),
          ({ key, client }): MadeSandbox => ({ key, client, idleSeconds: made.idleSeconds }),
        ),
      ),
    end: (client) => () => {
      if (!made.isMade(client.scope)) return TE.left(CONFIGURED_SANDBOX)()
      // Ended meanwhile, by another request or by expiry: the key is no longer valid.
      if (!made.end(client.scope)) return refused()
      return forget(client.scope)()
    },
    isOpen: (sandbox) => made.isOpen(sandbox),
    onEnd: (listener) => void listeners.push(listener),
  }
}
