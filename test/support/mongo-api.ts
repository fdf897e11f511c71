import { MongoClient } from 'mongodb'
import ConnectionString from 'mongodb-connection-string-url'
import { type MongoStore, openMongoStore } from '../../adapters/mongodb/mongo-store.js'
import type { Store } from '../../src/store/store.js'
import { type RunningApi, startApi } from './start-api.js'
import { throwawayDbName } from './mongo-server.js'

/** `uri` with `dbName` as its path and `options` added to its query, as an operator writes MONGODB_URI. */
export const mongodbUri = (uri: string, dbName: string, options: Readonly<Record<string, string>> = {}): string => {
  const connection = new ConnectionString(uri)
  connection.pathname = `/${dbName}`
  for (const [name, value] of Object.entries(options)) connection.searchParams.set(name, value)
  return connection.toString()
}

/**
 * Resolves once the store's background index builds are over, as a load balancer waits for
 * /readyz: until then every create is refused. Gives up after `boundMs`, so that a build that never
 * ends fails the test rather than hang the run.
 */
export const indexesBuilt = async (store: MongoStore, boundMs = 60_000): Promise<void> => {
  let timer: NodeJS.Timeout | undefined
  const givenUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the indexes were not built within ${boundMs} ms`)), boundMs)
  })
  await Promise.race([store.indexBuilds, givenUp]).finally(() => clearTimeout(timer))
}

export interface MongoInstances {
  readonly dbName: string
  /** Starts one more instance of the service: its own store (a client of its own) on the one database, its indexes built. */
  readonly start: (options?: {
    readonly rateLimit?: number
    readonly uriOptions?: Readonly<Record<string, string>>
  }) => Promise<RunningApi & { readonly store: Store }>
  /** Closes every instance and drops the database. */
  readonly dispose: () => Promise<void>
}

/**
 * Instances of the HTTP API on the production MongoDB store (openMongoStore, as main wires it:
 * its shared ports, its idempotency store, its readiness and its rate-limit counter), all on one
 * fresh database, as several instances of the service share one in production.
 */
export const mongoInstances = (uri: string, writeConcern: 'majority' | number = 'majority'): MongoInstances => {
  const dbName = throwawayDbName()
  const started: Array<RunningApi & { readonly store: Store }> = []
  return {
    dbName,
    start: async ({ rateLimit, uriOptions = {} } = {}) => {
      const store = openMongoStore({ uri: mongodbUri(uri, dbName, uriOptions), dbName, timeoutMs: 5000, writeConcern: { w: writeConcern } })
      await indexesBuilt(store)
      const api = await startApi({
        store,
        ...(rateLimit === undefined ? {} : { rateLimit: { limit: rateLimit, counter: store.rateLimits } }),
      })
      const instance = { ...api, store }
      started.push(instance)
      return instance
    },
    dispose: async () => {
      await Promise.all(started.map(async (instance) => Promise.all([instance.close(), instance.store.close()])))
      const client = await new MongoClient(uri).connect()
      try {
        await client.db(dbName).dropDatabase()
      } finally {
        await client.close()
      }
    },
  }
}
