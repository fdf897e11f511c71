import * as E from 'fp-ts/Either'
import pino from 'pino'
import { readConfig } from '../config.js'
import { generateKey } from '../main.js'
import { sandboxOf } from './sandbox-client.js'
import type { Sandbox } from './sandbox-types.js'
import { startService } from '../service.js'
import { openStore } from '../store.js'

export { connect } from './sandbox-client.js'
export {
  type ConnectOptions,
  type FaultRule,
  type JournalEntry,
  type JournalFilters,
  type JournalState,
  type JsonValue,
  type MadeSandbox,
  PetStoreError,
  type Sandbox,
  type SandboxClock,
  type SandboxReport,
} from './sandbox-types.js'

/** How `startPetStore` starts the service: with the whole test target on (PETSTORE_TEST_TARGET=on), faults included. */
export interface PetStoreOptions {
  /** PETSTORE_SEED: `demo`, or the path of a JSON file of createPet bodies. Default: none. */
  readonly seed?: string
}

/** The service running in this process, and the sandbox of its own key: `await using` closes it. */
export interface PetStore extends Sandbox {
  /** Stops it: the requests in flight are answered first. */
  readonly close: () => Promise<void>
  readonly [Symbol.asyncDispose]: () => Promise<void>
}

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
  let closed: Promise<void> | undefined
  const close = (): Promise<void> => (closed ??= service.close())
  return { ...sandboxOf(service.url, key), close, [Symbol.asyncDispose]: close }
}
