import * as E from 'fp-ts/Either'
import { MongoNetworkError } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mongoIdempotencyStore } from '../../adapters/mongodb/mongo-idempotency-store.js'
import { idempotencyStoreContract } from '../ports/idempotency-store.contract.js'
import { standInDb } from '../support/stand-in-db.js'
import { accessTo } from '../support/mongo-access.js'

const LOST = { _tag: 'StoreUnavailable', detail: 'claim idempotency key: MongoNetworkError: connection reset' } as const

const FailedClaim = suite('MongoDB idempotency: a claim whose call failed holds its key for nobody')

FailedClaim('a claim whose answer was lost is withdrawn: the same body takes the key over at once, with its create id', async () => {
  const standIn = standInDb()
  standIn.fail('findOneAndUpdate', new MongoNetworkError('connection reset'), 'lose')
  const store = mongoIdempotencyStore(accessTo(standIn.database))
  assert.equal(await store.claim('client:key', 'f1')(), E.left(LOST))
  const [lost] = standIn.documents('idempotency_keys')
  const retry = await store.claim('client:key', 'f1')()
  assert.ok(E.isRight(retry) && retry.right.kind === 'claimed' && retry.right.createId === lost?.createId, JSON.stringify(retry))
  assert.equal(await store.claim('client:key', 'f2')(), E.right({ kind: 'in_progress', fingerprint: 'f1' }))
})

FailedClaim(
  'a claim that lands after its call gave up, and after its withdrawal, takes nothing: the same body takes the key at once',
  async () => {
    const standIn = standInDb()
    const land = standIn.hold('findOneAndUpdate')
    // T of 1 ms: the claim's call gives up after 2 ms, while the stand-in holds its attempt.
    const store = mongoIdempotencyStore(accessTo(standIn.database, { timeoutMs: 1 }))
    assert.equal(
      await store.claim('client:key', 'f1')(),
      E.left({ _tag: 'StoreUnavailable', detail: 'claim idempotency key: StoreDeadlineError: no answer within 2 ms' }),
    )
    land()
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(standIn.documents('idempotency_keys')[0]?.leaseEndsAt, new Date(0), 'the late claim found its withdrawal')
    const retry = await mongoIdempotencyStore(accessTo(standIn.database)).claim('client:key', 'f1')()
    assert.ok(E.isRight(retry) && retry.right.kind === 'claimed', JSON.stringify(retry))
  },
)

FailedClaim('when the withdrawal fails too, the claim’s own failure is answered', async () => {
  const standIn = standInDb()
  standIn.fail('findOneAndUpdate', new MongoNetworkError('connection reset'), 'lose')
  standIn.fail('updateOne', new MongoNetworkError('connection refused'))
  assert.equal(await mongoIdempotencyStore(accessTo(standIn.database)).claim('client:key', 'f1')(), E.left(LOST))
})

FailedClaim('each run of a claim sends a token of its own', async () => {
  const standIn = standInDb()
  standIn.fail('findOneAndUpdate', new MongoNetworkError('connection reset'), 'lose')
  standIn.fail('findOneAndUpdate', new MongoNetworkError('connection reset'), 'lose')
  const claim = mongoIdempotencyStore(accessTo(standIn.database)).claim('client:key', 'f1')
  await claim()
  const first = standIn.documents('idempotency_keys')[0]?.token
  await claim()
  assert.type(first, 'string')
  assert.is.not(standIn.documents('idempotency_keys')[0]?.token, first)
})

FailedClaim.run()

// Every rule of the port, on the adapter's own pipelines, without a mongod.
idempotencyStoreContract('MongoDB adapter on a stand-in database', async ({ recordTtlMs, leaseMs, clock }) => {
  const standIn = standInDb()
  const open = async () =>
    mongoIdempotencyStore({ ...accessTo(standIn.database), recordTtlMs, leaseMs, clockOffsetMs: () => clock.now() - Date.now() })
  return { store: await open(), sibling: open, dispose: async () => undefined }
})
