import * as assert from 'uvu/assert'
import { apiSuite } from '../support/api-suite.js'

const Index = apiSuite('GET /')

Index('answers 200 without a key with links to the API, its contract, its reference page and the health checks', async ({ api }) => {
  const response = await api.request('GET', '/', { key: false })
  assert.is(response.status, 200)
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
  assert.equal(response.body, {
    service: 'Pet Store',
    version: '1.0.0',
    links: { api: '/v1/pets', contract: '/v1/openapi.json', reference: '/docs', liveness: '/healthz', readiness: '/readyz' },
  })
  for (const path of Object.values((response.body as { links: Record<string, string> }).links)) {
    if (path !== '/v1/pets') assert.is((await api.request('GET', path, { key: false })).status, 200, path)
  }
})

Index.run()
