import { main } from '../src/main.js'

/** The first line of what went wrong, short enough to read at a glance. */
const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? ''

/**
 * `npm run start:mongo-memory`: a throwaway mongod from mongodb-memory-server (downloaded on first
 * use, so it needs internet once, or MONGOMS_SYSTEM_BINARY) and the service wired to it. Every run
 * starts from an empty database. Without a mongod it says why in two lines and exits 1, without
 * retrying a download.
 */
const run = async (): Promise<void> => {
  process.env.MONGOMS_MAX_RETRIES ??= '0'
  const { MongoMemoryServer } = await import('mongodb-memory-server')
  const mongod = await MongoMemoryServer.create()
  process.stderr.write(`Started a throwaway mongod at ${mongod.getUri()} (a new, empty database each run)\n`)
  await main({ ...process.env, PETSTORE_STORE: 'mongodb', MONGODB_URI: mongod.getUri('petstore') })
}

run().catch((error: unknown) => {
  process.stderr.write(
    `petstore: cannot start a throwaway mongod: ${firstLine(error)}\n` +
      '  Set MONGOMS_SYSTEM_BINARY to a mongod binary, or run npm start with PETSTORE_STORE=mongodb and MONGODB_URI.\n',
  )
  process.exit(1)
})
