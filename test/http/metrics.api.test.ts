import * as assert from 'uvu/assert'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { TEST_KEY } from '../support/start-api.js'

const Metrics = apiSuite('GET /metrics', { metrics: true })

Metrics('serves requests by route and status, a latency histogram, store errors and process metrics, without a key', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Secret Name' }) })
  await api.request('GET', '/v1/pets/1')
  await api.request('GET', '/v1/pets/2')
  const response = await api.request('GET', '/metrics', { key: false })
  assert.is(response.status, 200)
  assert.match(response.headers.get('content-type') ?? '', 'text/plain')
  assert.match(response.text, 'petstore_http_requests_total{method="GET",route="/v1/pets/:petId",status="200"} 1')
  assert.match(response.text, 'petstore_http_requests_total{method="GET",route="/v1/pets/:petId",status="404"} 1')
  assert.match(response.text, 'petstore_http_request_duration_seconds_bucket{le="0.005",method="POST",route="/v1/pets"}')
  assert.match(response.text, 'petstore_store_errors_total')
  assert.match(response.text, 'process_resident_memory_bytes')
})

Metrics('reveals no key and no pet data', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Secret Name' }) })
  const text = (await api.request('GET', '/metrics', { key: false })).text
  assert.not.match(text, TEST_KEY)
  assert.not.match(text, 'Secret Name')
})

Metrics.run()

const Off = apiSuite('GET /metrics with PETSTORE_METRICS=off', { metrics: false })

Off('is not served', async ({ api }) => {
  assertError(await api.request('GET', '/metrics', { key: false }), 404, 'route_not_found')
})

Off.run()
