import { type Db, MongoNetworkError } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { inProgressFilter } from '../../adapters/mongodb/idempotency-queries.js'
import { mongoIdempotencyStore } from '../../adapters/mongodb/mongo-idempotency-store.js'
import { applyPipeline } from '../support/pipeline-evaluator.js'

interface Update {
  readonly filter: unknown
  readonly update: unknown
}

/**
 * A database that applies every claim and loses its answer (the connection drops on the way back),
 * and records every updateOne, failing it too when `updateFails`. Only what the claim path calls.
 */
const answerLostDatabase = (updateFails: boolean) => {
  const claimed: Array<Record<string, unknown>> = []
  const updates: Update[] = []
  const records = {
    findOneAndUpdate: async (filter: { _id: string }, pipeline: ReadonlyArray<Record<string, unknown>>) => {
      claimed.push(applyPipeline(undefined, filter._id, pipeline, new Date('2026-03-01T12:00:00Z')))
      throw new MongoNetworkError('connection reset')
    },
    updateOne: async (filter: unknown, update: unknown) => {
      updates.push({ filter, update })
      if (updateFails) throw new MongoNetworkError('connection refused')
      return { matchedCount: 1 }
    },
  }
  const db = { collection: () => records } as unknown as Db
  return { db, claimed, updates }
}

const FailedClaim = suite('MongoDB idempotency: a claim whose answer was lost')

FailedClaim('a claim whose answer was lost ends the lease of the claim it may have made, and answers its failure', async () => {
  const { db, claimed, updates } = answerLostDatabase(false)
  const result = await mongoIdempotencyStore({ database: async () => db }).claim('client:key', 'f1')()
  assert.equal(result, {
    _tag: 'Left',
    left: { _tag: 'StoreUnavailable', detail: 'claim idempotency key: MongoNetworkError: connection reset' },
  })
  assert.is(claimed.length, 1)
  const token = claimed[0]?.token
  assert.type(token, 'string')
  assert.equal(
    updates.map(({ filter }) => filter),
    [inProgressFilter('client:key', String(token))],
  )
})

FailedClaim('when ending that lease fails too, the claim’s own failure is answered', async () => {
  const { db, updates } = answerLostDatabase(true)
  const result = await mongoIdempotencyStore({ database: async () => db }).claim('client:key', 'f1')()
  assert.equal(result, {
    _tag: 'Left',
    left: { _tag: 'StoreUnavailable', detail: 'claim idempotency key: MongoNetworkError: connection reset' },
  })
  assert.is(updates.length, 1)
})

FailedClaim('each run of a claim sends a token of its own', async () => {
  const { db, claimed } = answerLostDatabase(false)
  const claim = mongoIdempotencyStore({ database: async () => db }).claim('client:key', 'f1')
  await claim()
  await claim()
  assert.is(claimed.length, 2)
  assert.is.not(claimed[0]?.token, claimed[1]?.token)
})

FailedClaim.run()
