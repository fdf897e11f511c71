import * as E from 'fp-ts/Either'
import type { Db } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mongoSandboxes, staleCollections } from '../../adapters/mongodb/mongo-sandboxes.js'
import { SHARED_PET_COLLECTIONS } from '../../adapters/mongodb/mongo-pet-repository.js'
import { DEFAULT_TIMEOUT_MS, type MongoAccess } from '../../adapters/mongodb/mongo-options.js'
import { seedMongoPets } from '../../adapters/mongodb/mongo-seed.js'
import type { PetDraft } from '../../src/domain/pet.js'
import { idempotencyStoreContract } from '../contract/idempotency-store.contract.js'
import { petRepositoryContract } from '../contract/pet-repository.contract.js'
import { sandboxSpaceContract } from '../contract/sandbox-space.contract.js'
import { findMongod, onServerClock, sharedMongod, throwawayDatabase } from '../support/mongo-server.js'
import { skippedSuite } from '../support/skipped-suite.js'

const Names = suite('MongoDB sandbox collections')

Names('a reset drops only the older generations of its own sandbox', () => {
  const names = ['pets', 'sandbox.ab.0.pets', 'sandbox.ab.1.counters', 'sandbox.ab.2.pets', 'sandbox.abc.0.pets', 'sandbox.ab.x.pets']
  assert.equal(staleCollections(names, 'ab', 2), ['sandbox.ab.0.pets', 'sandbox.ab.1.counters'])
})

Names.run()

const SEED: ReadonlyArray<PetDraft> = [
  { name: 'Rex', categoryId: 1, status: 'available' },
  { name: 'Zoë', categoryId: 2, status: 'sold' },
]
const WRITE_CONCERN = { w: 'majority' } as const
const accessTo = (db: Db): MongoAccess => ({ database: async () => db, writeConcern: WRITE_CONCERN, timeoutMs: DEFAULT_TIMEOUT_MS })

const source = findMongod()
if (source.kind === 'none') {
  skippedSuite('MongoDB sandbox tests', source.reason)
} else {
  const mongod = sharedMongod(source)

  sandboxSpaceContract('mongodb', async (seed) => {
    const database = throwawayDatabase(await mongod.uri())
    const spaceOn = async () => {
      const db = await database.connect()
      return mongoSandboxes({ database: async () => db, writeConcern: WRITE_CONCERN, seed })
    }
    return { space: await spaceOn(), sibling: spaceOn, dispose: database.dispose }
  })

  /** The ports of one sandbox on a fresh database, opened by as many instances as asked. */
  const sandboxOn = async (times = {}) => {
    const database = throwawayDatabase(await mongod.uri())
    const open = async () => {
      const db = await database.connect()
      const ports = await mongoSandboxes({ database: async () => db, writeConcern: WRITE_CONCERN, seed: [], ...times }).open('aaaa0001')()
      if (E.isLeft(ports)) throw new Error(ports.left.detail)
      return ports.right
    }
    return { ports: await open(), open, dispose: database.dispose }
  }

  petRepositoryContract('mongodb sandbox', async () => {
    const sandbox = await sandboxOn()
    return { repository: sandbox.ports.pets, sibling: async () => (await sandbox.open()).pets, dispose: sandbox.dispose }
  })

  idempotencyStoreContract('mongodb sandbox', async (times) => {
    const sandbox = await sandboxOn(onServerClock(times))
    return { store: sandbox.ports.idempotency, sibling: async () => (await sandbox.open()).idempotency, dispose: sandbox.dispose }
  })

  const Seed = suite('MongoDB seed of the shared collections')

  Seed('is applied exactly once when several instances start on one empty database', async () => {
    const database = throwawayDatabase(await mongod.uri())
    try {
      const dbs = await Promise.all([database.connect(), database.connect(), database.connect()])
      const outcomes = await Promise.all(dbs.map((db) => seedMongoPets(accessTo(db), SHARED_PET_COLLECTIONS, SEED)))
      assert.ok(outcomes.some((outcome) => outcome.kind === 'seeded'))
      const pets = await dbs[0]?.collection(SHARED_PET_COLLECTIONS.pets).find().sort({ _id: 1 }).toArray()
      assert.equal(pets, [
        { _id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { _id: 2, name: 'Zoë', categoryId: 2, status: 'sold' },
      ])
      assert.equal(await dbs[0]?.collection(SHARED_PET_COLLECTIONS.counters).findOne({}), { _id: 'pets', next: 2 })
    } finally {
      await database.dispose()
    }
  })

  Seed('is never applied to a database that holds pets', async () => {
    const database = throwawayDatabase(await mongod.uri())
    try {
      const db = await database.connect()
      await db.collection<{ _id: string; next: number }>(SHARED_PET_COLLECTIONS.counters).insertOne({ _id: 'pets', next: 5 })
      assert.equal(await seedMongoPets(accessTo(db), SHARED_PET_COLLECTIONS, SEED), { kind: 'not-empty' })
      assert.is(await db.collection(SHARED_PET_COLLECTIONS.pets).countDocuments(), 0)
    } finally {
      await database.dispose()
    }
  })

  Seed.after(async () => {
    await mongod.stop()
  })

  Seed.run()
}
