import * as E from 'fp-ts/Either'
import { MongoClient } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mongoIdempotencyStore } from '../../adapters/mongodb/mongo-idempotency-store.js'
import { ensureSharedIndexes } from '../../adapters/mongodb/shared-indexes.js'
import type { PetDocument } from '../../adapters/mongodb/pet-document.js'
import { listFilter, PETS_COLLECTION } from '../../adapters/mongodb/pet-queries.js'
import { mongoContracts, petFixture } from '../support/mongo-contracts.js'
import { findMongod, sharedMongod, throwawayDatabase, withoutMongod } from '../support/mongo-server.js'
import { accessTo } from '../support/mongo-access.js'

/** Which index the query planner chose, from `explain`; COLLSCAN when none. */
const indexUsedBy = (plan: unknown): string => {
  const text = JSON.stringify(plan)
  if (text.includes('"COLLSCAN"')) return 'COLLSCAN'
  if (text.includes('IDHACK') || text.includes('EXPRESS')) return '_id_'
  return /"indexName":"([^"]+)"/.exec(text)?.[1] ?? 'unknown'
}

const source = findMongod()
if (source.kind === 'none') {
  withoutMongod('MongoDB repository tests', source.reason)
} else {
  const mongod = sharedMongod(source)
  mongoContracts('mongodb', mongod.uri)

  const Clocks = suite('MongoDB idempotency expiry by the server’s clock')

  Clocks('an instance whose clock runs an hour ahead takes over no live claim, and its own claims last their lease', async () => {
    const database = throwawayDatabase(await mongod.uri())
    const realNow = Date.now
    try {
      // Two instances, each with a client of its own, on one database.
      const storeOn = async () => {
        const db = await database.connect()
        await ensureSharedIndexes(accessTo(async () => db))
        return mongoIdempotencyStore(accessTo(async () => db))
      }
      const punctual = await storeOn()
      const ahead = await storeOn()
      assert.is((await punctual.claim('client:key', 'f1')())._tag, 'Right')
      // Every clock this process reads runs an hour ahead, as a skewed instance's would.
      Date.now = () => realNow() + 60 * 60 * 1000
      assert.equal(await ahead.claim('client:key', 'f1')(), E.right({ kind: 'in_progress', fingerprint: 'f1' }))
      const own = await ahead.claim('client:other', 'f1')()
      Date.now = realNow
      assert.equal(await punctual.claim('client:other', 'f1')(), E.right({ kind: 'in_progress', fingerprint: 'f1' }))
      assert.ok(E.isRight(own) && own.right.kind === 'claimed')
    } finally {
      Date.now = realNow
      await database.dispose()
    }
  })

  Clocks.run()

  const Indexes = suite('MongoDB indexes')

  Indexes('list, list by status and get use indexes, never a collection scan', async () => {
    const fixture = await petFixture(await mongod.uri())
    const client = await new MongoClient(await mongod.uri()).connect()
    try {
      for (let index = 0; index < 50; index += 1) {
        await fixture.repository.insert({ name: `pet ${index}`, categoryId: 1, status: index % 2 === 0 ? 'sold' : 'pending' })()
      }
      const pets = client.db(fixture.dbName).collection<PetDocument>(PETS_COLLECTION)
      assert.is(
        indexUsedBy(
          await pets
            .find(listFilter({ limit: 20, status: 'sold', after: 10 }))
            .sort({ _id: 1 })
            .limit(21)
            .explain(),
        ),
        'status_1__id_1',
      )
      assert.is(
        indexUsedBy(
          await pets
            .find(listFilter({ limit: 20, after: 10 }))
            .sort({ _id: 1 })
            .limit(21)
            .explain(),
        ),
        '_id_',
      )
      assert.is.not(indexUsedBy(await pets.find({ _id: 7 }).explain()), 'COLLSCAN')
    } finally {
      await client.close()
      await fixture.dispose()
    }
  })

  Indexes.after(async () => {
    await mongod.stop()
  })

  Indexes.run()
}
