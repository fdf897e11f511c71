import { MongoClient } from 'mongodb'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertError } from '../support/api-suite.js'
import { mongoInstances } from '../support/mongo-api.js'
import { mongoContracts } from '../support/mongo-contracts.js'
import { findReplicaSet, primaryOf, sharedMongod, stepDown, withoutMongod } from '../support/mongo-server.js'
import { aNewPet } from '../support/pet-builder.js'
import type { RunningApi } from '../support/start-api.js'
import { until } from '../support/until.js'

/** How long a test waits for what a replica set does on its own time (an election): a bound on a hang only. */
const GIVE_UP_MS = 120_000

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once /readyz answers 200: the store reaches a primary and its indexes exist. */
const untilReady = async (api: RunningApi): Promise<void> => {
  const giveUpAt = Date.now() + GIVE_UP_MS
  while ((await api.request('GET', '/readyz', { key: false })).status !== 200) {
    if (Date.now() > giveUpAt) throw new Error('the store never became ready')
    await pause(250)
  }
}

/**
 * A client's keyed create, as a careful SDK sends it: the same key and body again after any answer
 * but 201 (a 503 while no primary is elected, a 409 while an earlier attempt holds the key, a lost
 * connection) until the 201, whose pet it answers. It stops asking once `stop` is aborted (the test
 * ended early).
 */
const createUntilStored = async (
  api: RunningApi,
  index: number,
  onStored: () => void,
  stop: AbortSignal,
): Promise<{ id: number; name: string }> => {
  const giveUpAt = Date.now() + GIVE_UP_MS
  for (;;) {
    const answered = await api
      .request('POST', '/v1/pets', { body: aNewPet({ name: `pet ${index}` }), headers: { 'idempotency-key': `key-${index}` } })
      .catch(() => undefined)
    if (answered?.status === 201) {
      onStored()
      return answered.body as { id: number; name: string }
    }
    if (stop.aborted || Date.now() > giveUpAt)
      throw new Error(`key-${index} was never answered 201 (last: ${answered?.status ?? 'no answer'})`)
    await pause(200)
  }
}

/** Every pet, page by page, following each `next` link. */
const walkAllPages = async (api: RunningApi): Promise<ReadonlyArray<{ id: number; name: string }>> => {
  const pets: Array<{ id: number; name: string }> = []
  let next: string | undefined = '/v1/pets?limit=100'
  while (next !== undefined) {
    const page = await api.request('GET', next)
    assert.is(page.status, 200, page.text)
    pets.push(...(page.body as Array<{ id: number; name: string }>))
    next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1]
  }
  return pets
}

/**
 * The port contracts once more on a replica set, where writes are retryable, `majority` waits for
 * a secondary, and a read can be sent to a secondary that lags.
 */
const source = findReplicaSet()
if (source.kind === 'none') {
  withoutMongod('MongoDB replica-set tests', source.reason)
} else {
  const replicaSet = sharedMongod(source, 'replica set')

  mongoContracts('mongodb replica set', replicaSet.uri)

  const Reads = suite('The HTTP API on a MongoDB replica set')

  Reads('with readPreference=secondary in MONGODB_URI, a GET right after its 201 finds the pet, every time', async () => {
    const instances = mongoInstances(await replicaSet.uri())
    try {
      const api = await instances.start({ uriOptions: { readPreference: 'secondary' } })
      for (let round = 0; round < 20; round += 1) {
        const created = await api.request('POST', '/v1/pets', { body: aNewPet({ name: `pet ${round}` }) })
        assert.is(created.status, 201)
        assert.is((await api.request('GET', created.headers.get('location') ?? '')).status, 200)
        const headers = { 'idempotency-key': `key-${round}` }
        assert.is((await api.request('POST', '/v1/pets', { body: aNewPet(), headers })).status, 201)
        assert.is((await api.request('POST', '/v1/pets', { body: aNewPet(), headers })).status, 201)
      }
      assert.is(((await api.request('GET', '/v1/pets?limit=100')).body as unknown[]).length, 40)
    } finally {
      await instances.dispose()
    }
  })

  Reads('a write concern the replica set cannot satisfy (5 of 3 members) is a 500, not "retry later"', async () => {
    const instances = mongoInstances(await replicaSet.uri(), 5)
    try {
      const api = await instances.start()
      const response = await api.request('POST', '/v1/pets', { body: aNewPet() })
      assertError(response, 500, 'internal_error')
      assert.is(response.headers.get('retry-after'), null)
    } finally {
      await instances.dispose()
    }
  })

  Reads(
    'a primary stepping down while 1,000 keyed creates and their retries run: another member is elected, no pet is lost or duplicated, and each key answers one pet',
    async () => {
      const uri = await replicaSet.uri()
      const instances = mongoInstances(uri)
      const client = await new MongoClient(uri).connect()
      const stop = new AbortController()
      let creates: Promise<ReadonlyArray<{ id: number; name: string }>> | undefined
      try {
        const admin = client.db('admin')
        const status = await admin.command({ replSetGetStatus: 1 })
        assert.is((status.members as unknown[]).length, 3, 'the step-down test needs a replica set of three members')
        const api = await instances.start()
        await untilReady(api)
        const steppingDown = await primaryOf(admin)
        if (steppingDown === undefined) throw new Error('the replica set has no primary')
        const KEYS = 1000
        let stored = 0
        let hundredStored = (): void => undefined
        const hundred = new Promise<void>((resolve) => (hundredStored = resolve))
        const onStored = (): void => {
          stored += 1
          if (stored === 100) hundredStored()
        }
        creates = Promise.all(Array.from({ length: KEYS }, (_, index) => createUntilStored(api, index, onStored, stop.signal)))
        // With a tenth stored and the rest in flight, the primary steps down: from the moment it
        // starts to, it takes no write, so every create not yet stored is stored by the member elected next.
        await hundred
        await stepDown(admin)
        assert.ok(stored < KEYS, `creates still ran when the primary stepped down (${stored} of ${KEYS} stored)`)
        await until(
          async () => ![undefined, steppingDown].includes(await primaryOf(admin)),
          `a member other than ${steppingDown} elected primary`,
        )
        const answered = await creates
        // Each key answers its one pet, also when asked once more now.
        const again = await Promise.all(answered.map((_, index) => createUntilStored(api, index, () => undefined, stop.signal)))
        assert.equal(
          again.map((pet) => pet.id),
          answered.map((pet) => pet.id),
        )
        const walked = await walkAllPages(api)
        assert.is(walked.length, KEYS, 'every page walked: each create stored exactly once')
        assert.is(new Set(walked.map((pet) => pet.id)).size, KEYS, 'no id twice')
        assert.is(new Set(walked.map((pet) => pet.name)).size, KEYS, 'no pet lost, none duplicated')
        assert.equal(
          [...walked.map((pet) => pet.id)].sort((one, other) => one - other),
          [...answered.map((pet) => pet.id)].sort((one, other) => one - other),
        )
      } finally {
        // A test that failed early lets its creates end before closing what they use.
        stop.abort()
        await creates?.catch(() => undefined)
        await client.close()
        await instances.dispose()
      }
    },
  )

  Reads.after(async () => {
    await replicaSet.stop()
  })

  Reads.run()
}
