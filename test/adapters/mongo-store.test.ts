import { setTimeout as pause } from 'node:timers/promises'
import * as E from 'fp-ts/Either'
import { type CommandStartedEvent, type Db, MongoClient } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mongoIdempotencyStore } from '../../adapters/mongodb/mongo-idempotency-store.js'
import { type CounterDocument, mongoPetRepository } from '../../adapters/mongodb/mongo-pet-repository.js'
import { mongoRateLimitCounter } from '../../adapters/mongodb/mongo-rate-limit-counter.js'
import { openMongoStore } from '../../adapters/mongodb/mongo-store.js'
import { seedMongoPets } from '../../adapters/mongodb/mongo-seed.js'
import { COUNTERS_COLLECTION, counterFilter, PETS_COLLECTION } from '../../adapters/mongodb/pet-queries.js'
import { type PetDocument, toDocument } from '../../adapters/mongodb/pet-document.js'
import { assertError } from '../support/api-suite.js'
import { indexesBuilt, mongodbUri, mongoInstances } from '../support/mongo-api.js'
import { petFixture } from '../support/mongo-contracts.js'
import { failPoint, findMongod, sharedMongod, throwawayDbName, withoutMongod } from '../support/mongo-server.js'
import { aNewPet } from '../support/pet-builder.js'
import { startApi } from '../support/start-api.js'
import { until } from '../support/until.js'

const run = async <A>(task: () => Promise<E.Either<unknown, A>>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`the store failed: ${JSON.stringify(result.left)}`)
  return result.right
}

/** Index names of a collection, with their TTL where they have one. */
const indexesOf = async (client: MongoClient, dbName: string, collection: string): Promise<ReadonlyArray<string>> =>
  (await client.db(dbName).collection(collection).indexes()).map(
    (index) => `${index.name ?? ''}${index.expireAfterSeconds === undefined ? '' : ` ttl ${index.expireAfterSeconds}`}`,
  )

/** PETSTORE_MONGODB_TIMEOUT_MS's default: the bound on each round trip, which an index build must outlast. */
const TIMEOUT_MS = 2000

/** Pets of the data set an upgrade starts from: enough for a build that takes a while on any machine. */
const UPGRADED_PETS = 200_000

/**
 * The data set of the version before createId_1, written as that version wrote it (not through
 * today's adapter, whose shapes may change): its pets, their id counter and its one index, by status.
 */
const legacyDataSet = async (db: Db, total: number): Promise<void> => {
  const pets = db.collection<{ _id: number; name: string; categoryId: number; status: string }>('pets')
  const batch = 10_000
  for (let first = 1; first <= total; first += batch) {
    await pets.insertMany(
      Array.from({ length: batch }, (_, index) => ({ _id: first + index, name: `pet ${first + index}`, categoryId: 1, status: 'sold' })),
    )
  }
  await db.collection<{ _id: string; next: number }>('counters').insertOne({ _id: 'pets', next: total })
  await pets.createIndex({ status: 1, _id: 1 }, { name: 'status_1__id_1' })
}

/** The index builds running on a collection, by index name: each build's UUID, which listIndexes shows until it is ready. */
const buildsOn = async (db: Db, collection: string): Promise<Readonly<Record<string, string>>> => {
  const listed = await db.command({ listIndexes: collection, includeBuildUUIDs: true })
  const indexes = (listed.cursor as { firstBatch: ReadonlyArray<{ spec?: { name?: string }; buildUUID?: unknown }> }).firstBatch
  return Object.fromEntries(
    indexes.flatMap((index) => (index.buildUUID === undefined ? [] : [[index.spec?.name ?? '', JSON.stringify(index.buildUUID)]])),
  )
}

const source = findMongod()
if (source.kind === 'none') {
  withoutMongod('MongoDB store and HTTP API on MongoDB', source.reason)
} else {
  const mongod = sharedMongod(source)

  const Wiring = suite('openMongoStore: the production wiring on a mongod')

  Wiring('builds every index of the shared collections once at start, and is ready once they exist', async () => {
    const dbName = throwawayDbName()
    const uri = await mongod.uri()
    const store = openMongoStore({ uri: mongodbUri(uri, dbName), dbName, timeoutMs: 5000, writeConcern: { w: 'majority' } })
    const client = await new MongoClient(uri).connect()
    try {
      await indexesBuilt(store)
      assert.equal(await store.ready()(), E.right(undefined))
      assert.equal(await indexesOf(client, dbName, 'pets'), ['_id_', 'status_1__id_1', 'createId_1'])
      assert.equal(await indexesOf(client, dbName, 'idempotency_keys'), ['_id_', 'expiresAt_ttl ttl 0'])
      assert.equal(await indexesOf(client, dbName, 'rate_limits'), ['_id_', 'expiresAt_ttl ttl 0'])
    } finally {
      await store.close()
      await client.db(dbName).dropDatabase()
      await client.close()
    }
  })

  Wiring(
    'an upgrade on 200,000 pets without createId_1 becomes ready once its build ends, however far past the timeout it runs',
    async () => {
      const dbName = throwawayDbName()
      const uri = await mongod.uri()
      const client = await new MongoClient(uri).connect()
      const db = client.db(dbName)
      try {
        await legacyDataSet(db, UPGRADED_PETS)
        // From now on every index build on this server stops in its collection scan until released.
        const held = await failPoint(client, 'hangAfterStartingIndexBuild')
        try {
          const store = openMongoStore({ uri: mongodbUri(uri, dbName), dbName, timeoutMs: TIMEOUT_MS, writeConcern: { w: 'majority' } })
          const api = await startApi({ store })
          const create = { body: aNewPet(), headers: { 'idempotency-key': 'upgrade-0001' } }
          try {
            const building = async (): Promise<string | undefined> => (await buildsOn(db, 'pets')).createId_1
            await until(async () => (await building()) !== undefined, 'the store starts building createId_1')
            const build = await building()
            // Waiting is what is checked: the build outlasts twice the timeout (a busy machine only
            // makes the wait longer), still the same build, neither cut at the timeout nor started again.
            await pause(2 * TIMEOUT_MS)
            assert.equal(await buildsOn(db, 'pets'), { createId_1: build })
            // Meanwhile a keyed create is refused, to be sent again.
            assertError(await api.request('POST', '/v1/pets', create), 503, 'service_unavailable')
            await held.release()
            await indexesBuilt(store, 600_000)
            assert.equal(await store.ready()(), E.right(undefined))
            assert.equal(await indexesOf(client, dbName, 'pets'), ['_id_', 'status_1__id_1', 'createId_1'])
            const created = await api.request('POST', '/v1/pets', create)
            assert.is(created.status, 201)
            assert.is((created.body as { id: number }).id, UPGRADED_PETS + 1)
            const retried = await api.request('POST', '/v1/pets', create)
            assert.equal([retried.status, retried.body], [201, created.body])
            assert.is(await db.collection('pets').countDocuments(), UPGRADED_PETS + 1)
          } finally {
            await api.close()
            await store.close()
          }
        } finally {
          // Released again (turning it off twice does no harm) when the test failed early: later builds must not hang.
          await held.release()
        }
      } finally {
        await db.dropDatabase()
        await client.close()
      }
    },
  )

  Wiring('decodes and finds what it wrote whatever read and BSON options MONGODB_URI carries', async () => {
    const dbName = throwawayDbName()
    const uri = await mongod.uri()
    const hostile = {
      readPreference: 'secondaryPreferred',
      promoteValues: 'false',
      promoteLongs: 'false',
      useBigInt64: 'true',
      readConcernLevel: 'available',
    }
    const store = openMongoStore({ uri: mongodbUri(uri, dbName, hostile), dbName, timeoutMs: 5000, writeConcern: { w: 'majority' } })
    try {
      await indexesBuilt(store)
      const pet = await run(store.shared.pets.insert(aNewPet({ categoryId: 7, status: 'sold' })))
      assert.equal(await run(store.shared.pets.findById(pet.id)), { _tag: 'Some', value: pet })
      assert.equal(await run(store.shared.pets.list({ limit: 5 })), [pet])
      const claim = await run(store.shared.idempotency.claim('client:key', 'f1'))
      assert.is(claim.kind, 'claimed')
      assert.equal(await run(store.shared.idempotency.claim('client:key', 'f1')), { kind: 'in_progress', fingerprint: 'f1' })
      assert.is((await run(store.rateLimits.hit('client', 60_000))).count, 1)
    } finally {
      await store.close()
      const client = await new MongoClient(uri).connect()
      await client.db(dbName).dropDatabase()
      await client.close()
    }
  })

  Wiring('every command carries its server-side bound, and every write bounds its wait for the write concern', async () => {
    const dbName = throwawayDbName()
    const client = new MongoClient(await mongod.uri(), { monitorCommands: true })
    const commands: CommandStartedEvent[] = []
    client.on('commandStarted', (event) => commands.push(event))
    try {
      await client.connect()
      const access = { database: async () => client.db(dbName), writeConcern: { w: 'majority' as const }, timeoutMs: 1500 }
      const pets = mongoPetRepository(access)
      const idempotency = mongoIdempotencyStore(access)
      await seedMongoPets(access, [aNewPet({ name: 'Zoë', status: 'sold' })])
      const pet = await run(pets.insert(aNewPet({ status: 'sold' })))
      await run(pets.findById(pet.id))
      await run(pets.list({ limit: 5 }))
      const claim = await run(idempotency.claim('client:key', 'f1'))
      if (claim.kind === 'claimed') {
        await run(idempotency.complete('client:key', claim.createId, 'f1', pet))
        await run(idempotency.endLease('client:key', claim.token))
      }
      await run(mongoRateLimitCounter(access).hit('client', 60_000))
      const data = commands.filter((event) => ['find', 'insert', 'update', 'findAndModify', 'delete'].includes(event.commandName))
      assert.ok(data.length >= 10, `${data.length} commands`)
      for (const event of data) {
        assert.is(event.command.maxTimeMS, 1500, `${event.commandName} has maxTimeMS`)
        const writeConcern: unknown = event.command.writeConcern
        if (event.commandName !== 'find') assert.equal(writeConcern, { ...(writeConcern as object), wtimeout: 1500 }, event.commandName)
      }
    } finally {
      await client.db(dbName).dropDatabase()
      await client.close()
    }
  })

  Wiring('a write concern the server cannot satisfy is StoreFailed, a 500, not "retry later"', async () => {
    const instances = mongoInstances(await mongod.uri(), 5)
    try {
      const api = await instances.start()
      const response = await api.request('POST', '/v1/pets', { body: aNewPet() })
      assertError(response, 500, 'internal_error')
      assert.is(response.headers.get('retry-after'), null)
    } finally {
      await instances.dispose()
    }
  })

  Wiring('a walk can miss a pet created during it even on one instance: the id is taken before the insert', async () => {
    const fixture = await petFixture(await mongod.uri())
    const client = await new MongoClient(await mongod.uri()).connect()
    try {
      const db = client.db(fixture.dbName)
      await run(fixture.repository.insert(aNewPet({ name: 'first', status: 'sold' })))
      // A create of this same instance is between its two awaits: it holds id 2, not yet stored.
      const slow = await db
        .collection<CounterDocument>(COUNTERS_COLLECTION)
        .findOneAndUpdate(counterFilter, { $inc: { next: 1 } }, { returnDocument: 'after' })
      const fast = await run(fixture.repository.insert(aNewPet({ name: 'third', status: 'sold' })))
      const page = await run(fixture.repository.list({ limit: 10, after: 1 }))
      assert.equal(
        page.map((pet) => pet.id),
        [fast.id],
      )
      // The slow create's insert lands behind the cursor (after 3): the walk never shows it.
      await db
        .collection<PetDocument>(PETS_COLLECTION)
        .insertOne(toDocument({ id: slow?.next ?? 0, name: 'second', categoryId: 1, status: 'sold' }))
      assert.equal(await run(fixture.repository.list({ limit: 10, after: fast.id })), [])
      assert.is((await run(fixture.repository.list({ limit: 10 }))).length, 3)
    } finally {
      await client.close()
      await fixture.dispose()
    }
  })

  Wiring.run()

  const Api = suite('The HTTP API on MongoDB: several instances on one database')

  Api('creates, gets and lists a pet, and is ready', async () => {
    const instances = mongoInstances(await mongod.uri())
    try {
      const api = await instances.start()
      assert.is((await api.request('GET', '/readyz', { key: false })).status, 200)
      const created = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex' }) })
      assert.is(created.status, 201)
      const location = created.headers.get('location') ?? ''
      assert.equal((await api.request('GET', location)).body, created.body)
      assert.equal((await api.request('GET', '/v1/pets')).body, [created.body])
    } finally {
      await instances.dispose()
    }
  })

  Api('concurrent creates with one Idempotency-Key on two instances create one pet (the MongoDB idempotency store)', async () => {
    const instances = mongoInstances(await mongod.uri())
    try {
      const [one, two] = [await instances.start(), await instances.start()]
      const headers = { 'idempotency-key': 'race-0001' }
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? one : two).request('POST', '/v1/pets', { body: aNewPet(), headers })),
      )
      assert.ok(
        responses.every((response) => response.status === 201 || response.status === 409),
        responses.map((response) => response.status).join(),
      )
      const created = responses.filter((response) => response.status === 201)
      assert.ok(created.every((response) => JSON.stringify(response.body) === JSON.stringify(created[0]?.body)))
      assert.is(((await one.request('GET', '/v1/pets')).body as unknown[]).length, 1)
      // Once done, a retry on either instance replays the one answer.
      assert.equal((await two.request('POST', '/v1/pets', { body: aNewPet(), headers })).body, (await one.request('GET', '/v1/pets')).body)
    } finally {
      await instances.dispose()
    }
  })

  Api('the rate limit holds across instances: every instance counts in one place', async () => {
    const instances = mongoInstances(await mongod.uri())
    try {
      const [one, two] = [await instances.start({ rateLimit: 3 }), await instances.start({ rateLimit: 3 })]
      assert.is((await one.request('GET', '/v1/pets')).status, 200)
      assert.is((await two.request('GET', '/v1/pets')).status, 200)
      assert.is((await one.request('GET', '/v1/pets')).status, 200)
      assertError(await two.request('GET', '/v1/pets'), 429, 'rate_limited')
      assertError(await one.request('GET', '/v1/pets'), 429, 'rate_limited')
    } finally {
      await instances.dispose()
    }
  })

  Api.after(async () => {
    await mongod.stop()
  })

  Api.run()
}
