import type { Db } from 'mongodb'
import type { MongoAccess } from '../../adapters/mongodb/mongo-options.js'

/** What the service gives an adapter by default (PETSTORE_MONGODB_WRITE_CONCERN and _TIMEOUT_MS unset), over `database`. */
export const accessTo = (database: () => Promise<Db>, overrides: Partial<MongoAccess> = {}): MongoAccess => ({
  database,
  writeConcern: { w: 'majority' },
  timeoutMs: 2000,
  ...overrides,
})
