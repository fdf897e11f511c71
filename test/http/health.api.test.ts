import * as assert from 'uvu/assert'
import { apiSuite, assertError } from '../support/api-suite.js'

const Health = apiSuite('GET /healthz and /readyz')

Health('/healthz answers 200 without a key while the process is alive', async ({ api }) => {
  const response = await api.request('GET', '/healthz', { key: false })
  assert.is(response.status, 200)
  assert.equal(response.body, { status: 'alive' })
})

Health('/readyz answers 200 without a key when the store is ready; the memory store always is', async ({ api }) => {
  const response = await api.request('GET', '/readyz', { key: false })
  assert.is(response.status, 200)
  assert.equal(response.body, { status: 'ready' })
})

Health.run()

const Draining = apiSuite('GET /readyz while shutting down', {
  health: { ready: () => async () => ({ _tag: 'Right', right: undefined }), draining: () => true },
})

Draining('/readyz answers 503 as soon as shutdown begins, so a load balancer stops sending', async ({ api }) => {
  const response = await api.request('GET', '/readyz', { key: false })
  assertError(response, 503, 'service_unavailable')
  assert.is((await api.request('GET', '/healthz', { key: false })).status, 200)
})

Draining.run()
