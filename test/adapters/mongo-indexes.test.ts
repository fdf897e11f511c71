import * as E from 'fp-ts/Either'
import {
  type CollectionOptions,
  type CreateIndexesOptions,
  type Db,
  type Document,
  MongoClient,
  MongoNetworkError,
  MongoServerError,
} from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { INDEX_BUILD } from '../../adapters/mongodb/mongo-options.js'
import { mongoStoreOn } from '../../adapters/mongodb/mongo-store.js'
import { buildSharedIndexes, ensureSharedIndexes, retryDelayMs } from '../../adapters/mongodb/shared-indexes.js'
import { assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { startApi } from '../support/start-api.js'
import { until } from '../support/until.js'

/** What the adapter asked of the stand-in database, in order. */
interface Call {
  readonly command: 'createIndex' | 'ping'
  readonly collection?: string
  readonly settings?: CollectionOptions
  readonly options?: CreateIndexesOptions
}

/**
 * A stand-in for the few Db calls index builds and readiness make (collection().createIndex and
 * command), recording each. `createIndex` answers as `answer` says: a failure to throw, or a
 * promise to wait for (a build that runs until the test lets it end); by default, the index name.
 */
const standIn = (answer: () => Error | Promise<void> | undefined = () => undefined) => {
  const calls: Call[] = []
  const db = {
    collection: (collection: string, settings: CollectionOptions) => ({
      createIndex: async (_key: unknown, options: CreateIndexesOptions) => {
        calls.push({ command: 'createIndex', collection, settings, options })
        const outcome = answer()
        if (outcome instanceof Error) throw outcome
        await outcome
        return String(options.name)
      },
    }),
    command: async (command: Document) => {
      if (command.ping !== 1) throw new Error(`unexpected command ${JSON.stringify(command)}`)
      calls.push({ command: 'ping' })
      return { ok: 1 }
    },
  } as unknown as Db
  return { db, calls, database: async () => db }
}

/** A build the test ends when it chooses. */
const heldBuild = () => {
  let end: () => void = () => undefined
  const ended = new Promise<void>((resolve) => {
    end = resolve
  })
  return { ended, end }
}

const Builds = suite('MongoDB index builds: once per start, in the background, without a time limit')

Builds('every index build carries no time limit and is acknowledged by a majority, whatever the URI says', async () => {
  const { db, calls } = standIn()
  await ensureSharedIndexes(db)
  assert.equal(
    calls.map((call) => `${call.collection ?? ''}.${String(call.options?.name)}`),
    ['pets.status_1__id_1', 'pets.createId_1', 'idempotency_keys.expiresAt_ttl', 'rate_limits.expiresAt_ttl'],
  )
  for (const { options, settings } of calls) {
    // The driver adds maxTimeMS to a command only from the call's options (operations/command.ts).
    assert.is(options?.maxTimeMS, undefined)
    assert.equal(settings, INDEX_BUILD)
  }
  // On a real client whose URI asks for no acknowledgement and a short write-concern wait.
  const client = new MongoClient('mongodb://db.example/pets?w=0&wtimeoutMS=10', { serverSelectionTimeoutMS: 100 })
  const { writeConcern } = client.db('pets').collection('pets', INDEX_BUILD)
  assert.equal({ w: writeConcern?.w, wtimeoutMS: writeConcern?.wtimeoutMS }, { w: 'majority', wtimeoutMS: undefined })
})

Builds('a failed build is tried again, after a pause that doubles up to 10 s, until every index exists', async () => {
  let failures = 2
  const { calls, database } = standIn(() => (failures-- > 0 ? new MongoNetworkError('connection reset') : undefined))
  const indexes = buildSharedIndexes(database)
  assert.not.ok(indexes.built())
  await indexes.finished
  assert.ok(indexes.built())
  // Two failed first builds, then all four.
  assert.equal(
    calls.map((call) => String(call.options?.name)),
    ['status_1__id_1', 'status_1__id_1', 'status_1__id_1', 'createId_1', 'expiresAt_ttl', 'expiresAt_ttl'],
  )
  assert.equal([1, 2, 3, 6, 7, 100].map(retryDelayMs), [250, 500, 1000, 8000, 10_000, 10_000])
})

Builds('until the indexes exist, what needs them is refused: 503 while the failure passes, 500 when someone must act', async () => {
  const cases = [
    { failure: new MongoNetworkError('connection reset'), tag: 'StoreUnavailable', reason: /MongoNetworkError: connection reset/ },
    {
      failure: new MongoServerError({ ok: 0, code: 85, codeName: 'IndexOptionsConflict', errmsg: 'an index with the same name differs' }),
      tag: 'StoreFailed',
      reason: /code 85 IndexOptionsConflict/,
    },
  ]
  for (const { failure, tag, reason } of cases) {
    const { calls, database } = standIn(() => failure)
    const indexes = buildSharedIndexes(database)
    try {
      await until(() => calls.length > 0, 'a first build')
      const refusal = indexes.refusal()
      assert.is(refusal._tag, tag)
      assert.match(refusal.detail, /^the indexes are not built yet, and creates wait for them .*; the last attempt failed: /)
      assert.match(refusal.detail, reason)
    } finally {
      indexes.stop()
      await indexes.finished
    }
    assert.not.ok(indexes.built())
  }
})

Builds('closing the store stops the builds: no attempt after it, and the pause before the next ends at once', async () => {
  const { calls, database } = standIn(() => new MongoNetworkError('connection reset'))
  const store = mongoStoreOn({ database, writeConcern: { w: 'majority' }, timeoutMs: 1000 }, [], async () => undefined)
  await until(() => calls.length > 0, 'a first build')
  await store.close()
  await store.indexBuilds
  assert.is(calls.length, 1)
})

Builds.run()

const Waiting = suite('MongoDB readiness and creates wait for the indexes')

Waiting('readiness answers 503 until every index is built, then asks one ping per probe and never builds an index', async () => {
  const build = heldBuild()
  const { calls, database } = standIn(() => build.ended)
  const store = mongoStoreOn({ database, writeConcern: { w: 'majority' }, timeoutMs: 1000 }, [], async () => undefined)
  try {
    const waiting = await store.ready()()
    assert.ok(E.isLeft(waiting) && waiting.left._tag === 'StoreUnavailable', JSON.stringify(waiting))
    assert.match(E.isLeft(waiting) ? waiting.left.detail : '', /the indexes are not built yet.*: the first build is running$/)
    build.end()
    await store.indexBuilds
    const built = calls.length
    assert.is(built, 4)
    assert.equal(await store.ready()(), E.right(undefined))
    assert.equal(await store.ready()(), E.right(undefined))
    assert.equal(
      calls.slice(built).map((call) => call.command),
      ['ping', 'ping'],
    )
  } finally {
    await store.close()
  }
})

Waiting('a create before the indexes exist is answered 503 with Retry-After, with or without a create id, saying why', async () => {
  const build = heldBuild()
  const { database } = standIn(() => build.ended)
  const store = mongoStoreOn({ database, writeConcern: { w: 'majority' }, timeoutMs: 1000 }, [], async () => undefined)
  const api = await startApi({ store })
  try {
    const response = await api.request('POST', '/v1/pets', { body: aNewPet() })
    assertError(response, 503, 'service_unavailable')
    assert.is(response.headers.get('retry-after'), '5')
    const keyed = await store.shared.pets.insert({ name: 'Rex', categoryId: 1, status: 'sold' }, 'a-create-id')()
    assert.ok(E.isLeft(keyed) && keyed.left._tag === 'StoreUnavailable', JSON.stringify(keyed))
    assert.match(E.isLeft(keyed) ? keyed.left.detail : '', /^the indexes are not built yet, and creates wait for them/)
  } finally {
    build.end()
    await api.close()
    await store.close()
  }
})

Waiting.run()
