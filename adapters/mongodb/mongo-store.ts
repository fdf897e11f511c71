import { MongoClient, type WriteConcernSettings } from 'mongodb'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { ensurePetIndexes, mongoPetRepository } from './mongo-pet-repository.js'

export interface MongoStoreOptions {
  readonly uri: string
  readonly dbName: string
  /** Bound on server selection, connecting and each reply, so a dead database gives a 503, never a hang. */
  readonly timeoutMs: number
  readonly writeConcern: WriteConcernSettings
}

export interface MongoStore {
  readonly repository: PetRepository
  /** Closes the client; called on shutdown once the requests in flight are answered. */
  readonly close: () => Promise<void>
}

/**
 * Opens a MongoDB-backed store without waiting for the server: the driver connects on first use
 * and reconnects by itself, so a database that is down at start-up or later only costs 503s until it
 * is back. Indexes are created now when possible, and again by every readiness check (idempotent).
 */
export const openMongoStore = (options: MongoStoreOptions): MongoStore => {
  // Finding a server, connecting, waiting for a pooled connection and waiting for a reply are each
  // bounded, so that an unreachable or hung database costs at most about the timeout per request.
  const client = new MongoClient(options.uri, {
    serverSelectionTimeoutMS: options.timeoutMs,
    connectTimeoutMS: options.timeoutMs,
    waitQueueTimeoutMS: options.timeoutMs,
    socketTimeoutMS: options.timeoutMs,
  })
  const db = client.db(options.dbName)
  ensurePetIndexes(db).catch(() => {
    // Not reachable yet: /readyz stays 503 and retries until the indexes exist.
  })
  return {
    repository: mongoPetRepository({ db, writeConcern: options.writeConcern }),
    close: () => client.close(),
  }
}
