import { type BulkWriteResult, MongoBulkWriteError, MongoNetworkError, MongoServerError } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { upsertOnceMore } from '../../adapters/mongodb/mongo-call.js'

const duplicateKey = (): MongoServerError =>
  new MongoServerError({ ok: 0, code: 11000, codeName: 'DuplicateKey', errmsg: 'E11000 duplicate key' })

/** An upsert that fails with each of `failures` in turn, then answers how many times it ran. */
const upsertFailing = (...failures: ReadonlyArray<Error>) => {
  let runs = 0
  const upsert = (): Promise<number> => {
    runs += 1
    const failure = failures[runs - 1]
    return failure === undefined ? Promise.resolve(runs) : Promise.reject(failure)
  }
  return { upsert, runs: () => runs }
}

const UpsertOnceMore = suite('An upsert that lost the race to create its document is run once more')

UpsertOnceMore('a duplicate key, of one upsert or of a bulk write of upserts, is met by running it once more', async () => {
  assert.is(await upsertOnceMore(upsertFailing(duplicateKey()).upsert), 2)
  // The driver gives a bulk write's failure the code of its first write error.
  const bulk = new MongoBulkWriteError({ message: 'E11000 duplicate key', code: 11000, writeErrors: [] }, {} as BulkWriteResult)
  assert.is(await upsertOnceMore(upsertFailing(bulk).upsert), 2)
})

UpsertOnceMore('only once, and never for another failure', async () => {
  const twice = upsertFailing(duplicateKey(), duplicateKey())
  await upsertOnceMore(twice.upsert).then(
    () => assert.unreachable('a second duplicate key is the caller’s'),
    (error: unknown) => assert.ok(error instanceof MongoServerError && error.code === 11000),
  )
  assert.is(twice.runs(), 2)
  const network = upsertFailing(new MongoNetworkError('connection reset'))
  await upsertOnceMore(network.upsert).then(
    () => assert.unreachable('a network failure is not retried here'),
    (error: unknown) => assert.ok(error instanceof MongoNetworkError),
  )
  assert.is(network.runs(), 1)
})

UpsertOnceMore.run()
