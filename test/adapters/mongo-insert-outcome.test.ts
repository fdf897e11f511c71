import * as E from 'fp-ts/Either'
import { type Db, MongoNetworkError, MongoServerError } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mongoPetRepository } from '../../adapters/mongodb/mongo-pet-repository.js'

const DRAFT = { name: 'Rex', categoryId: 1, status: 'available' } as const
const TIMEOUT_MS = 20

/**
 * A database whose id counter answers after `counterMs` and whose insert does what `insertOne`
 * says; it records every insert sent. Enough of the driver's surface for the repository's insert.
 */
const fakeDatabase = (counterMs: number, insertOne: () => Promise<unknown>) => {
  const sent: unknown[] = []
  const collections = {
    counters: {
      findOneAndUpdate: async () => {
        await new Promise((resolve) => setTimeout(resolve, counterMs))
        return { _id: 'pets', next: 1 }
      },
    },
    pets: {
      insertOne: async (document: unknown) => {
        sent.push(document)
        return insertOne()
      },
      findOne: async () => null,
    },
  }
  const db = { collection: (name: 'counters' | 'pets') => collections[name] } as unknown as Db
  return { db, sent }
}

const insertWith = (db: Db) => mongoPetRepository({ database: async () => db, timeoutMs: TIMEOUT_MS }).insert(DRAFT, 'create-1')()

const Outcome = suite('MongoDB insert: whether a failed insert may have stored the pet')

Outcome('an insert abandoned at its deadline before it was sent is never sent, and its outcome is known', async () => {
  const { db, sent } = fakeDatabase(5 * TIMEOUT_MS, async () => ({ acknowledged: true }))
  const result = await insertWith(db)
  assert.ok(E.isLeft(result) && result.left._tag === 'StoreUnavailable' && result.left.outcomeUnknown === undefined, JSON.stringify(result))
  // The abandoned work runs on past the deadline: it reaches the insert, and stops there.
  await new Promise((resolve) => setTimeout(resolve, 6 * TIMEOUT_MS))
  assert.equal(sent, [])
})

Outcome('an insert sent whose answer is lost leaves its outcome unknown', async () => {
  const { db, sent } = fakeDatabase(0, async () => {
    throw new MongoNetworkError('connection reset')
  })
  const result = await insertWith(db)
  assert.ok(E.isLeft(result) && result.left.outcomeUnknown === true, JSON.stringify(result))
  assert.is(sent.length, 1)
})

Outcome('an insert the server refused outright stored nothing, and says so', async () => {
  const { db } = fakeDatabase(0, async () => {
    throw new MongoServerError({ ok: 0, code: 121, codeName: 'DocumentValidationFailure', errmsg: 'Document failed validation' })
  })
  const result = await insertWith(db)
  assert.ok(E.isLeft(result) && result.left._tag === 'StoreFailed' && result.left.outcomeUnknown === undefined, JSON.stringify(result))
})

Outcome.run()
