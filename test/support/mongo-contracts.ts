import { mongoIdempotencyStore } from '../../adapters/mongodb/mongo-idempotency-store.js'
import { mongoPetRepository } from '../../adapters/mongodb/mongo-pet-repository.js'
import { mongoRateLimitCounter } from '../../adapters/mongodb/mongo-rate-limit-counter.js'
import { ensureSharedIndexes } from '../../adapters/mongodb/shared-indexes.js'
import { idempotencyStoreContract } from '../ports/idempotency-store.contract.js'
import { petRepositoryContract, type StoreFixture } from '../ports/pet-repository.contract.js'
import { rateLimitCounterContract } from '../ports/rate-limit-counter.contract.js'
import { onServerClock, throwawayDatabase } from './mongo-server.js'
import { accessTo } from './mongo-access.js'

export const WRITE_CONCERN = { w: 'majority' } as const

/** A fresh database with the shared indexes, and a repository on it per instance. */
export const petFixture = async (uri: string): Promise<StoreFixture & { readonly dbName: string }> => {
  const database = throwawayDatabase(uri)
  const repositoryOn = async () => {
    const db = await database.connect()
    await ensureSharedIndexes(accessTo(async () => db))
    return mongoPetRepository(accessTo(async () => db))
  }
  return { dbName: database.dbName, repository: await repositoryOn(), sibling: repositoryOn, dispose: database.dispose }
}

/**
 * Every port contract on the MongoDB adapters, on the server `uri` gives: the pets, idempotency
 * records and rate-limit counts. Each test has a database of its own, and each "instance" a client of its own.
 */
export const mongoContracts = (label: string, uri: () => Promise<string>): void => {
  petRepositoryContract(label, async () => petFixture(await uri()))

  idempotencyStoreContract(label, async (times) => {
    const database = throwawayDatabase(await uri())
    const storeOn = async () => {
      const db = await database.connect()
      await ensureSharedIndexes(accessTo(async () => db))
      return mongoIdempotencyStore({ ...accessTo(async () => db), ...onServerClock(times) })
    }
    return { store: await storeOn(), sibling: storeOn, dispose: database.dispose }
  })

  rateLimitCounterContract(label, async (now) => {
    const database = throwawayDatabase(await uri())
    const counterOn = async () => {
      const db = await database.connect()
      await ensureSharedIndexes(accessTo(async () => db))
      return mongoRateLimitCounter({ ...accessTo(async () => db), writeConcern: { w: 1 }, clockOffsetMs: () => now() - Date.now() })
    }
    return { counter: await counterOn(), sibling: counterOn, dispose: database.dispose }
  })
}
