import * as E from 'fp-ts/Either'
import { MongoClient, MongoNetworkError, MongoServerError } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { collectionIn, type MongoAccess } from '../../adapters/mongodb/mongo-options.js'
import { mongoStoreOn } from '../../adapters/mongodb/mongo-store.js'
import { buildSharedIndexes, ensureSharedIndexes } from '../../adapters/mongodb/shared-indexes.js'
import type { StoreLog } from '../../src/store/store.js'
import { assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { standInDb, type StandInDb } from '../support/stand-in-db.js'
import { startApi } from '../support/start-api.js'
import { until } from '../support/until.js'

const EVERY_INDEX = { pets: ['status_1__id_1', 'createId_1'], idempotency_keys: ['expiresAt_ttl'], rate_limits: ['expiresAt_ttl'] }
/** The indexes of the version before createId_1: an upgrade. */
const BEFORE_CREATE_ID = { pets: ['status_1__id_1'] }

const accessTo = (standIn: StandInDb, timeoutMs = 1000): MongoAccess => ({
  database: standIn.database,
  writeConcern: { w: 'majority' },
  timeoutMs,
})

/** A log that keeps its lines as `level message`. */
const captured = (): { readonly log: StoreLog; readonly lines: string[] } => {
  const lines: string[] = []
  return { log: (level, message) => void lines.push(`${level} ${message}`), lines }
}

const builds = (standIn: StandInDb) => standIn.calls.filter((call) => call.operation === 'createIndexes')

const Builds = suite('MongoDB index builds: only the missing ones, with the store’s write concern, retried and logged')

Builds('an index that exists is never built again: a start on a built database lists the indexes and builds none', async () => {
  const standIn = standInDb(EVERY_INDEX)
  await ensureSharedIndexes(accessTo(standIn))
  assert.equal(
    standIn.calls.map((call) => `${call.operation} ${call.collection}`),
    ['listIndexes pets', 'listIndexes idempotency_keys', 'listIndexes rate_limits'],
  )
})

Builds('a missing index is built with PETSTORE_MONGODB_WRITE_CONCERN, its wait bounded by T on the server, and no time limit', async () => {
  const standIn = standInDb(BEFORE_CREATE_ID)
  await ensureSharedIndexes({ database: standIn.database, writeConcern: { w: 1 }, timeoutMs: 1500 })
  assert.equal(
    builds(standIn).map((call) => [call.collection, call.argument]),
    [
      ['pets', [{ key: { createId: 1 }, name: 'createId_1', unique: true, partialFilterExpression: { createId: { $exists: true } } }]],
      ['idempotency_keys', [{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }]],
      ['rate_limits', [{ key: { expiresAt: 1 }, name: 'expiresAt_ttl', expireAfterSeconds: 0 }]],
    ],
  )
  // No options of its own: the driver takes the write concern from the collection, and adds maxTimeMS to a command only from them.
  for (const call of builds(standIn)) assert.equal(call.settings?.writeConcern, { w: 1, wtimeoutMS: 1500 })
  // On a real client whose URI asks for no acknowledgement and a long wait.
  const client = new MongoClient('mongodb://db.example/pets?w=0&wtimeoutMS=60000', { serverSelectionTimeoutMS: 100 })
  const { writeConcern } = await collectionIn({ database: async () => client.db('pets'), writeConcern: { w: 1 }, timeoutMs: 1500 }, 'pets')
  assert.equal({ w: writeConcern?.w, wtimeoutMS: writeConcern?.wtimeoutMS }, { w: 1, wtimeoutMS: 1500 })
})

Builds('a failed attempt is logged and tried again after a pause that doubles from 250 ms, until every index exists', async () => {
  const standIn = standInDb()
  standIn.fail('createIndexes', new MongoNetworkError('connection reset'))
  standIn.fail('createIndexes', new MongoNetworkError('connection reset'))
  const { log, lines } = captured()
  await buildSharedIndexes(accessTo(standIn), log).finished
  assert.equal(lines, [
    'warn building the indexes: MongoNetworkError: connection reset; trying again in 250 ms',
    'warn building the indexes: MongoNetworkError: connection reset; trying again in 500 ms',
  ])
  await ensureSharedIndexes(accessTo(standIn))
  assert.is(builds(standIn).length, 5, 'two failed attempts, then the three collections once')
})

Builds('a failure someone must fix is logged at error, and creates are refused with 500 meanwhile', async () => {
  const standIn = standInDb()
  const conflict = new MongoServerError({
    ok: 0,
    code: 85,
    codeName: 'IndexOptionsConflict',
    errmsg: 'an index with the same name differs',
  })
  standIn.fail('createIndexes', conflict)
  const { log, lines } = captured()
  const indexes = buildSharedIndexes(accessTo(standIn), log)
  try {
    await until(() => lines.length > 0, 'a failed attempt')
    assert.match(lines[0] ?? '', /^error building the indexes: MongoServerError \(code 85 IndexOptionsConflict\): /)
    assert.equal(indexes.createsWait(), {
      _tag: 'StoreFailed',
      detail:
        'creates wait for the index pets.createId_1; its last build failed: MongoServerError (code 85 IndexOptionsConflict): an index with the same name differs',
    })
  } finally {
    indexes.stop()
    await indexes.finished
  }
})

Builds('an attempt that runs past 3T is logged as slow once, and goes on', async () => {
  const standIn = standInDb()
  const release = standIn.hold('createIndexes')
  const { log, lines } = captured()
  const indexes = buildSharedIndexes(accessTo(standIn, 5), log)
  await until(() => lines.length > 0, 'the slow attempt logged')
  assert.equal(lines, ['warn building the indexes: no answer after 15 ms; still waiting'])
  release()
  await indexes.finished
  assert.is(indexes.createsWait(), undefined)
  assert.is(lines.length, 1)
})

Builds('closing the store stops the builds: no attempt after it, and the pause before the next ends at once', async () => {
  const standIn = standInDb()
  standIn.fail('createIndexes', new MongoNetworkError('connection reset'))
  const store = mongoStoreOn(accessTo(standIn), [], async () => undefined)
  await until(() => builds(standIn).length > 0, 'a first build')
  await store.close()
  await store.indexBuilds
  assert.is(builds(standIn).length, 1)
})

Builds.run()

const Waiting = suite('MongoDB readiness waits for what reads need; creates for createId_1, before their claim')

Waiting('readiness waits for the index lists by status read, then asks one ping per probe and never builds an index', async () => {
  const standIn = standInDb()
  const release = standIn.hold('createIndexes')
  const store = mongoStoreOn(accessTo(standIn), [], async () => undefined)
  try {
    assert.equal(
      await store.ready()(),
      E.left({ _tag: 'StoreUnavailable', detail: 'not ready: lists by status wait for the index pets.status_1__id_1, being built' }),
    )
    release()
    await store.indexBuilds
    const built = standIn.calls.length
    assert.equal(await store.ready()(), E.right(undefined))
    assert.equal(await store.ready()(), E.right(undefined))
    assert.equal(
      standIn.calls.slice(built).map((call) => call.operation),
      ['ping', 'ping'],
    )
  } finally {
    await store.close()
  }
})

Waiting('an upgrade is ready, serving reads, while createId_1 is built; creates answer 503 meanwhile, saying why', async () => {
  const standIn = standInDb(BEFORE_CREATE_ID)
  const release = standIn.hold('createIndexes')
  const store = mongoStoreOn(accessTo(standIn), [], async () => undefined)
  try {
    await until(() => builds(standIn).length > 0, 'the build of createId_1')
    assert.equal(await store.ready()(), E.right(undefined))
    assert.equal(
      await store.shared.pets.insert(aNewPet({ status: 'sold' }))(),
      E.left({ _tag: 'StoreUnavailable', detail: 'creates wait for the index pets.createId_1, being built' }),
    )
  } finally {
    release()
    await store.close()
  }
})

Waiting('a create refused while createId_1 is built writes nothing: its Idempotency-Key stays free for another body', async () => {
  const standIn = standInDb()
  const release = standIn.hold('createIndexes')
  const store = mongoStoreOn(accessTo(standIn), [], async () => undefined)
  const api = await startApi({ store })
  try {
    const headers = { 'idempotency-key': 'refused-0001' }
    const refused = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex' }), headers })
    assertError(refused, 503, 'service_unavailable')
    assert.is(refused.headers.get('retry-after'), '5')
    assertError(await api.request('POST', '/v1/pets', { body: aNewPet() }), 503, 'service_unavailable')
    assert.equal([standIn.documents('idempotency_keys'), standIn.documents('pets')], [[], []])
    release()
    await store.indexBuilds
    const created = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Max' }), headers })
    assert.equal([created.status, (created.body as { name: string }).name], [201, 'Max'])
  } finally {
    release()
    await api.close()
    await store.close()
  }
})

Waiting.run()
