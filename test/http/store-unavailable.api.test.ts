import * as assert from 'uvu/assert'
import { openMongoStore } from '../../adapters/mongodb/mongo-store.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import type { ApiResponse } from '../support/start-api.js'

const TIMEOUT_MS = 1000
/** The bound asserted per request: the store timeout plus slack for a noisy machine. */
const BOUND_MS = TIMEOUT_MS + 1500

// Port 1 on loopback: nothing listens there, as when the database is down.
const store = openMongoStore({ uri: 'mongodb://127.0.0.1:1/petstore', dbName: 'petstore', timeoutMs: TIMEOUT_MS, writeConcern: { w: 'majority' } })

const timed = async (request: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; elapsedMs: number }> => {
  const started = performance.now()
  const response = await request()
  return { response, elapsedMs: performance.now() - started }
}

const Unreachable = apiSuite('PETSTORE_STORE=mongodb with the database unreachable', { pets: store.repository })

Unreachable.after(async () => {
  await store.close()
})

Unreachable('When the database cannot be reached, then /readyz and /v1/pets answer 503 with Retry-After within the bound, every time', async ({ api }) => {
  for (let round = 0; round < 3; round += 1) {
    for (const [method, path, body] of [['GET', '/readyz', undefined], ['GET', '/v1/pets', undefined], ['POST', '/v1/pets', aNewPet()], ['GET', '/v1/pets/1', undefined]] as const) {
      const { response, elapsedMs } = await timed(() => api.request(method, path, body === undefined ? {} : { body }))
      assertError(response, 503, 'service_unavailable')
      assert.is(response.headers.get('retry-after'), '5')
      assert.ok(elapsedMs < BOUND_MS, `${method} ${path} took ${Math.round(elapsedMs)} ms`)
    }
  }
})

Unreachable('When the database cannot be reached, then the process stays alive and /healthz still answers', async ({ api }) => {
  await api.request('GET', '/v1/pets')
  const response = await api.request('GET', '/healthz', { key: false })
  assert.is(response.status, 200)
  assert.equal(response.body, { status: 'alive' })
})

Unreachable.run()
