import { main } from '../src/main/main.js'

/** What went wrong, on one line short enough to read at a glance. */
const oneLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim().slice(0, 200)

/**
 * `npm run start:mongo-memory`: a throwaway mongod from mongodb-memory-server (downloaded on first
 * use, so it needs internet once, or MONGOMS_SYSTEM_BINARY) and the service wired to it. Every run
 * starts from an empty database. Without a mongod it says why in two lines and exits 1, without
 * retrying a download.
 */
const run = async (): Promise<void> => {
  process.env.MONGOMS_MAX_RETRIES ??= '0'
  const { MongoBinary, MongoMemoryServer } = await import('mongodb-memory-server')
  // Found (or downloaded) first: MongoMemoryServer.create would print its own failure with a stack trace.
  const mongod = await MongoMemoryServer.create({ binary: { systemBinary: await MongoBinary.getPath() } })
  process.stderr.write(`Started a throwaway mongod at ${mongod.getUri()} (a new, empty database each run)\n`)
  await main({ ...process.env, PETSTORE_STORE: 'mongodb', MONGODB_URI: mongod.getUri('petstore') })
}

run().catch((error: unknown) => {
  process.stderr.write(
    `petstore: cannot start a throwaway mongod: ${oneLine(error)}\n` +
      '  Set MONGOMS_SYSTEM_BINARY to a mongod binary, or run npm start with PETSTORE_STORE=mongodb and MONGODB_URI.\n',
  )
  process.exit(1)
})
