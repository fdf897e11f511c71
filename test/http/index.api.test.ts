import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { apiSuite } from '../support/api-suite.js'
import { startApi } from '../support/start-api.js'

const Index = apiSuite('GET /')

const BASE_LINKS = { api: '/v1/pets', contract: '/v1/openapi.json', reference: '/docs', liveness: '/healthz', readiness: '/readyz' }

Index('answers 200 without a key with links to the API, its contract, its reference page and the health checks', async ({ api }) => {
  const response = await api.request('GET', '/', { key: false })
  assert.is(response.status, 200)
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
  assert.equal(response.body, { service: 'Pet Store', version: '1.0.0', links: BASE_LINKS })
  for (const path of Object.values((response.body as { links: Record<string, string> }).links)) {
    if (path !== '/v1/pets') assert.is((await api.request('GET', path, { key: false })).status, 200, path)
  }
})

const Features = suite('GET / with the optional features')

Features('lists the inspector, the sandbox operations and the fault script only with the test target on', async () => {
  const sandboxLinks = {
    inspector: '/sandbox',
    sandboxes: '/v1/sandboxes',
    sandboxReset: '/v1/sandbox/reset',
    sandboxClock: '/v1/sandbox/clock',
    sandboxRequests: '/v1/sandbox/requests',
    sandboxReport: '/v1/sandbox/report',
  }
  const configurations = [
    { options: {}, links: BASE_LINKS },
    {
      options: { sandboxes: memoryStore().dataSets },
      links: { ...BASE_LINKS, ...sandboxLinks, sandboxFaults: '/v1/sandbox/faults' },
    },
  ]
  for (const { options, links } of configurations) {
    const api = await startApi(options)
    try {
      const response = await api.request('GET', '/', { key: false })
      assert.equal((response.body as { links: unknown }).links, links)
      // Each address is served: the page without a key, the operations with one.
      assert.is((await api.request('GET', '/sandbox', { key: false })).status, 'inspector' in links ? 200 : 404)
      for (const [method, path] of [
        ['POST', '/v1/sandboxes'],
        ['POST', '/v1/sandbox/reset'],
        ['GET', '/v1/sandbox/clock'],
        ['GET', '/v1/sandbox/requests'],
        ['GET', '/v1/sandbox/faults'],
      ] as const) {
        const listed = Object.values(links).includes(path)
        assert.is((await api.request(method, path)).status < 400, listed, `${method} ${path}`)
      }
    } finally {
      await api.close()
    }
  }
})

Index.run()
Features.run()
