import { setTimeout as pause } from 'node:timers/promises'
import { type IndexDescription, MongoServerError } from 'mongodb'
import { type StoreError, storeUnavailable } from '../../src/domain/errors.js'
import type { StoreLog } from '../../src/store/store.js'
import { describeFailure, isTransient, toStoreError, withDeadline } from './mongo-call.js'
import { IDEMPOTENCY_COLLECTION } from './mongo-idempotency-store.js'
import { collectionIn, type MongoAccess, serverBound } from './mongo-options.js'
import { RATE_LIMITS_COLLECTION } from './mongo-rate-limit-counter.js'
import { CREATE_ID_INDEX, PETS_COLLECTION, STATUS_INDEX } from './pet-queries.js'

/** MongoDB deletes a document once its `expiresAt` has passed (its TTL monitor runs about every minute). */
const TTL_INDEX = { key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 } as const

const SHARED_INDEXES: ReadonlyArray<readonly [string, ReadonlyArray<IndexDescription & { readonly name: string }>]> = [
  [PETS_COLLECTION, [STATUS_INDEX, CREATE_ID_INDEX]],
  [IDEMPOTENCY_COLLECTION, [TTL_INDEX]],
  [RATE_LIMITS_COLLECTION, [TTL_INDEX]],
]

/** The names of a collection's indexes; none before it exists (listIndexes then answers NamespaceNotFound, 26). */
const indexNames = async (access: MongoAccess, collection: string): Promise<ReadonlyArray<unknown>> => {
  try {
    const indexes = await (await collectionIn(access, collection)).listIndexes(serverBound(access.timeoutMs)).toArray()
    return indexes.map((index: { readonly name?: unknown }) => index.name)
  } catch (error) {
    if (error instanceof MongoServerError && Number(error.code) === 26) return []
    throw error
  }
}

/** Builds the missing indexes (ADR 0906), calling `exists` with each that exists; no time limit (ADR 1016). */
export const ensureSharedIndexes = async (access: MongoAccess, exists: (index: string) => void = () => undefined): Promise<void> => {
  for (const [collection, indexes] of SHARED_INDEXES) {
    const names = await withDeadline(access.timeoutMs, () => indexNames(access, collection))
    const missing = indexes.filter(({ name }) => !names.includes(name))
    for (const { name } of indexes) if (names.includes(name)) exists(`${collection}.${name}`)
    if (missing.length > 0) await (await collectionIn(access, collection)).createIndexes([...missing])
    for (const { name } of missing) exists(`${collection}.${name}`)
  }
}

/** Builds the missing indexes in the background, retried and logged as the guide's "Indexes" says, until all exist or `stop`. */
export const buildSharedIndexes = (access: MongoAccess, log: StoreLog) => {
  const stopping = new AbortController()
  const built = new Set<string>()
  let lastFailure: unknown
  const slowMs = 3 * access.timeoutMs
  const run = async (): Promise<void> => {
    for (let failures = 0; !stopping.signal.aborted; failures += 1) {
      const slow = setTimeout(() => log('warn', `building the indexes: no answer after ${slowMs} ms; still waiting`), slowMs)
      try {
        return await ensureSharedIndexes(access, (index) => built.add(index))
      } catch (error) {
        lastFailure = error
      } finally {
        clearTimeout(slow)
      }
      if (stopping.signal.aborted) return
      const delayMs = Math.min(250 * 2 ** failures, 10_000)
      const level = isTransient(lastFailure) ? 'warn' : 'error'
      log(level, `${describeFailure('building the indexes', lastFailure)}; trying again in ${delayMs} ms`)
      await pause(delayMs, undefined, { signal: stopping.signal }).catch(() => undefined)
    }
  }
  /** Why what needs `index` is refused: 503 while it is built or its last attempt failed for a while, 500 when someone must act. */
  const waitingFor = (index: string, reason: string) => (): StoreError | undefined => {
    if (built.has(index)) return undefined
    if (lastFailure === undefined) return storeUnavailable(`${reason} ${index}, being built`)
    return toStoreError(`${reason} ${index}; its last build failed`)(lastFailure)
  }
  return {
    createsWait: waitingFor(`${PETS_COLLECTION}.${CREATE_ID_INDEX.name}`, 'creates wait for the index'),
    readsWait: waitingFor(`${PETS_COLLECTION}.${STATUS_INDEX.name}`, 'not ready: lists by status wait for the index'),
    finished: run(),
    // An attempt still running ends as the client closes (closeCheckedOutConnections in mongo_client.ts).
    stop: () => stopping.abort(),
  }
}
