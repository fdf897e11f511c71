import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { assertError } from '../support/api-suite.js'
import { mongoInstances } from '../support/mongo-api.js'
import { mongoContracts } from '../support/mongo-contracts.js'
import { findReplicaSet, sharedMongod, withoutMongod } from '../support/mongo-server.js'
import { aNewPet } from '../support/pet-builder.js'

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

  Reads.after(async () => {
    await replicaSet.stop()
  })

  Reads.run()
}
