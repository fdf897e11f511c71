import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mongoPetRepository } from '../../adapters/mongodb/mongo-pet-repository.js'
import { SEED_BATCH_SIZE, seedMongoPets } from '../../adapters/mongodb/mongo-seed.js'
import type { PetDocument } from '../../adapters/mongodb/pet-document.js'
import { COUNTERS_COLLECTION, PETS_COLLECTION } from '../../adapters/mongodb/pet-queries.js'
import type { PetDraft } from '../../src/domain/pet.js'
import { findMongod, sharedMongod, throwawayDatabase, withoutMongod } from '../support/mongo-server.js'
import { accessTo } from '../support/mongo-access.js'
import { aNewPet } from '../support/pet-builder.js'

const SEED: ReadonlyArray<PetDraft> = [aNewPet({ name: 'Rex' }), aNewPet({ name: 'Zoë', categoryId: 2, status: 'sold' })]

/** `count` pets named by their place in the seed, so that each stored pet can be matched to its id. */
const numbered = (count: number): ReadonlyArray<PetDraft> =>
  Array.from({ length: count }, (_, index) => ({ name: `Pet ${index + 1}`, categoryId: 1, status: 'available' }))

const source = findMongod()
if (source.kind === 'none') {
  withoutMongod('MongoDB seed tests', source.reason)
} else {
  const mongod = sharedMongod(source)

  const Seed = suite('MongoDB seed of the shared collections')

  Seed('is applied exactly once when several instances start on one empty database', async () => {
    const database = throwawayDatabase(await mongod.uri())
    try {
      const dbs = await Promise.all([database.connect(), database.connect(), database.connect()])
      const outcomes = await Promise.all(
        dbs.map((db) =>
          seedMongoPets(
            accessTo(async () => db),
            SEED,
          ),
        ),
      )
      // Each says it seeded the store (it claimed or finished the seed) or found it done.
      assert.ok(outcomes.some((outcome) => outcome.kind === 'seeded'))
      assert.ok(outcomes.every((outcome) => outcome.kind === 'not-empty' || outcome.count === 2))
      const pets = await dbs[0]?.collection(PETS_COLLECTION).find().sort({ _id: 1 }).toArray()
      assert.equal(pets, [
        { _id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { _id: 2, name: 'Zoë', categoryId: 2, status: 'sold' },
      ])
      assert.equal(await dbs[0]?.collection(COUNTERS_COLLECTION).findOne({}), { _id: 'pets', next: 2 })
    } finally {
      await database.dispose()
    }
  })

  Seed('is never applied to a database that holds pets', async () => {
    const database = throwawayDatabase(await mongod.uri())
    try {
      const db = await database.connect()
      await db.collection<{ _id: string; next: number }>(COUNTERS_COLLECTION).insertOne({ _id: 'pets', next: 5 })
      assert.equal(
        await seedMongoPets(
          accessTo(async () => db),
          SEED,
        ),
        { kind: 'not-empty' },
      )
      assert.is(await db.collection(PETS_COLLECTION).countDocuments(), 0)
    } finally {
      await database.dispose()
    }
  })

  Seed('is never applied to pets stored without their counter, and makes no counter that would hand out their ids', async () => {
    const database = throwawayDatabase(await mongod.uri())
    try {
      const db = await database.connect()
      // Pets restored or imported by hand, without the counter.
      await db.collection<PetDocument>(PETS_COLLECTION).insertMany([
        { _id: 7, name: 'Imported', categoryId: 1, status: 'available' },
        { _id: 40, name: 'Restored', categoryId: 2, status: 'sold' },
      ])
      assert.equal(
        await seedMongoPets(
          accessTo(async () => db),
          SEED,
        ),
        { kind: 'not-empty' },
      )
      const pets = await db.collection(PETS_COLLECTION).find().sort({ _id: 1 }).toArray()
      assert.equal(
        pets.map((pet) => pet._id),
        [7, 40],
      )
      assert.is(await db.collection(COUNTERS_COLLECTION).findOne({}), null)
    } finally {
      await database.dispose()
    }
  })

  Seed('resumed with a larger seed than the one that set the mark, hands out ids after every seeded pet', async () => {
    const database = throwawayDatabase(await mongod.uri())
    try {
      const db = await database.connect()
      // A crash after the mark of a one-pet seed; the restart brings two.
      await db
        .collection<{ _id: string; next: number; seeding: boolean }>(COUNTERS_COLLECTION)
        .insertOne({ _id: 'pets', next: 1, seeding: true })
      assert.equal(
        await seedMongoPets(
          accessTo(async () => db),
          SEED,
        ),
        { kind: 'seeded', count: 2 },
      )
      assert.equal(await db.collection(COUNTERS_COLLECTION).findOne({}), { _id: 'pets', next: 2 })
    } finally {
      await database.dispose()
    }
  })

  Seed('a seed that stopped midway (mark set, some pets written) is finished by the next start, its pets unchanged', async () => {
    const database = throwawayDatabase(await mongod.uri())
    try {
      const db = await database.connect()
      await db
        .collection<{ _id: string; next: number; seeding: boolean }>(COUNTERS_COLLECTION)
        .insertOne({ _id: 'pets', next: 2, seeding: true })
      await db.collection<PetDocument>(PETS_COLLECTION).insertOne({ _id: 1, name: 'Rex', categoryId: 1, status: 'available' })
      assert.equal(
        await seedMongoPets(
          accessTo(async () => db),
          SEED,
        ),
        { kind: 'seeded', count: 2 },
      )
      assert.is(await db.collection(PETS_COLLECTION).countDocuments(), 2)
      assert.equal(await db.collection(COUNTERS_COLLECTION).findOne({}), { _id: 'pets', next: 2 })
      // A create after it gets the next id.
      const pets = mongoPetRepository(accessTo(async () => db))
      const created = await pets.insert(aNewPet({ name: 'Third', categoryId: 3, status: 'pending' }))()
      assert.ok(E.isRight(created) && created.right.id === 3, JSON.stringify(created))
    } finally {
      await database.dispose()
    }
  })

  Seed('larger than one batch, cut off after its first batch, is finished by the next start: every pet once, by its id', async () => {
    const database = throwawayDatabase(await mongod.uri())
    try {
      const db = await database.connect()
      const seed = numbered(2 * SEED_BATCH_SIZE + 500)
      // A start that marked the seed and wrote its first batch, then stopped.
      await db
        .collection<{ _id: string; next: number; seeding: boolean }>(COUNTERS_COLLECTION)
        .insertOne({ _id: 'pets', next: seed.length, seeding: true })
      await db
        .collection<PetDocument>(PETS_COLLECTION)
        .insertMany(seed.slice(0, SEED_BATCH_SIZE).map((draft, index) => ({ _id: index + 1, ...draft })))
      assert.equal(
        await seedMongoPets(
          accessTo(async () => db),
          seed,
        ),
        { kind: 'seeded', count: seed.length },
      )
      const stored = await db.collection<PetDocument>(PETS_COLLECTION).find().sort({ _id: 1 }).toArray()
      assert.equal(
        stored.map((pet) => `${pet._id} ${pet.name}`),
        seed.map((draft, index) => `${index + 1} ${draft.name}`),
      )
      assert.equal(await db.collection(COUNTERS_COLLECTION).findOne({}), { _id: 'pets', next: seed.length })
    } finally {
      await database.dispose()
    }
  })

  Seed.after(async () => {
    await mongod.stop()
  })

  Seed.run()
}
