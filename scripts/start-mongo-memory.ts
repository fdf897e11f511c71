import { MongoMemoryServer } from 'mongodb-memory-server'

/**
 * `npm run start:mongo-memory`: a throwaway mongod from mongodb-memory-server (downloaded on first
 * use, so it needs internet once) and the service wired to it. Every run starts from an empty database.
 */
const run = async (): Promise<void> => {
  const mongod = await MongoMemoryServer.create()
  process.stderr.write(`Started a throwaway mongod at ${mongod.getUri()} (a new, empty database each run)\n`)
  process.env.PETSTORE_STORE = 'mongodb'
  process.env.MONGODB_URI = mongod.getUri('petstore')
  await import('./main.js')
}

run().catch((error: unknown) => {
  process.stderr.write(`petstore: cannot start a throwaway mongod: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
