import * as E from 'fp-ts/Either'
import { MongoClient } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mongoCall, StoreDeadlineError, withDeadline } from '../../adapters/mongodb/mongo-call.js'
import { clientOptions, collectionIn, serverBound } from '../../adapters/mongodb/mongo-options.js'
import { openStore } from '../../src/main/store.js'

/** Every URI option that would break the service's reads or decoding, as an operator might set them. */
const HOSTILE_URI =
  'mongodb://db.example:27017/pets?readPreference=secondary&readConcernLevel=majority&promoteValues=false&promoteLongs=false&useBigInt64=true&raw=true&bsonRegExp=true&promoteBuffers=true&w=0'

// Constructing a client parses its options but connects to nothing, so all of this runs without a mongod.
const collectionOn = async (uri: string, timeoutMs = 2000) => {
  const client = new MongoClient(uri, clientOptions(timeoutMs))
  const access = { database: async () => client.db('pets'), writeConcern: { w: 'majority' as const }, timeoutMs }
  return { client, collection: await collectionIn(access, 'pets') }
}

const Pinned = suite('MongoDB reads pinned whatever MONGODB_URI says')

Pinned('every collection reads from the primary with the local read concern, even when the URI asks for a secondary', async () => {
  const { client, collection } = await collectionOn(HOSTILE_URI)
  assert.is(collection.readPreference?.mode, 'primary')
  assert.is(collection.readConcern?.level, 'local')
  // And so do the database's own commands (ping, listCollections), through the client.
  assert.is(client.db('pets').readPreference.mode, 'primary')
  assert.is(client.db('pets').readConcern?.level, 'local')
})

Pinned('every collection decodes plain numbers and strings, whatever BSON options the URI sets', async () => {
  const { collection } = await collectionOn(HOSTILE_URI)
  const { promoteValues, promoteLongs, useBigInt64, raw, bsonRegExp, promoteBuffers } = collection.bsonOptions
  assert.equal(
    { promoteValues, promoteLongs, useBigInt64, raw, bsonRegExp, promoteBuffers },
    { promoteValues: true, promoteLongs: true, useBigInt64: false, raw: false, bsonRegExp: false, promoteBuffers: false },
  )
})

Pinned('writes keep the configured write concern, not the URI’s, and bound its wait on the server', async () => {
  const { collection } = await collectionOn(HOSTILE_URI, 1500)
  assert.is(collection.writeConcern?.w, 'majority')
  assert.is(collection.writeConcern?.wtimeoutMS, 1500)
})

Pinned('a URI asking for stale reads (maxStalenessSeconds) cannot go with the primary: refused at start, naming MONGODB_URI', async () => {
  const opened = await openStore({
    kind: 'mongodb',
    uri: 'mongodb://db.example/pets?readPreference=secondary&maxStalenessSeconds=120',
    dbName: 'pets',
    timeoutMs: 2000,
    writeConcern: 'majority',
  })
  assert.ok(E.isLeft(opened) && opened.left.startsWith('MONGODB_URI is invalid: '), JSON.stringify(opened))
})

Pinned.run()

const Timeouts = suite('MongoDB timeouts: each wait bounded by the call, each operation on the server')

Timeouts('for every allowed PETSTORE_MONGODB_TIMEOUT_MS, finding a server, connecting and a pooled connection take at most it', () => {
  for (const timeoutMs of [100, 2000, 60_000]) {
    const { options } = new MongoClient('mongodb://db.example/pets', clientOptions(timeoutMs))
    assert.is(options.serverSelectionTimeoutMS, timeoutMs)
    assert.is(options.connectTimeoutMS, timeoutMs)
    assert.is(options.waitQueueTimeoutMS, timeoutMs)
    assert.is(serverBound(timeoutMs).maxTimeMS, timeoutMs)
  }
})

Timeouts('the URI cannot change the bounds, nor give the socket a timeout of its own that would cut an index build', () => {
  const { options } = new MongoClient(
    'mongodb://db.example/pets?socketTimeoutMS=500&serverSelectionTimeoutMS=30000&waitQueueTimeoutMS=0&connectTimeoutMS=0',
    clientOptions(2000),
  )
  assert.equal(
    [options.socketTimeoutMS, options.serverSelectionTimeoutMS, options.waitQueueTimeoutMS, options.connectTimeoutMS],
    [0, 2000, 2000, 2000],
  )
})

Timeouts('a call that does not finish within its bound is abandoned with StoreDeadlineError', async () => {
  const never = new Promise<never>(() => undefined)
  try {
    await withDeadline(20, () => never)
    assert.unreachable('the call was not abandoned')
  } catch (error) {
    assert.instance(error, StoreDeadlineError)
    assert.is((error as Error).message, 'no answer within 20 ms')
  }
  assert.is(await withDeadline(1000, async () => 'answered'), 'answered')
})

Timeouts('the late failure of abandoned work is dropped, never an unhandled rejection', async () => {
  const unhandled: unknown[] = []
  const record = (reason: unknown): void => void unhandled.push(reason)
  process.on('unhandledRejection', record)
  try {
    const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('late')), 30))
    await withDeadline(5, () => late).catch(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 60))
    assert.equal(unhandled, [])
  } finally {
    process.off('unhandledRejection', record)
  }
})

Timeouts('a store call past its bound is StoreUnavailable (503), its detail naming the call; round trips multiply the bound', async () => {
  const access = { database: () => new Promise<never>(() => undefined), writeConcern: {}, timeoutMs: 10 }
  assert.equal(
    await mongoCall(access, 'list pets', () => access.database())(),
    E.left({
      _tag: 'StoreUnavailable',
      detail: 'list pets: StoreDeadlineError: no answer within 10 ms',
    }),
  )
  assert.equal(
    await mongoCall(access, 'insert pet', () => access.database(), 2)(),
    E.left({
      _tag: 'StoreUnavailable',
      detail: 'insert pet: StoreDeadlineError: no answer within 20 ms',
    }),
  )
})

Timeouts.run()
