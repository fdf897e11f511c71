import * as assert from 'uvu/assert'
import { apiSuite } from '../support/api-suite.js'

const PAGE_ORIGIN = 'http://127.0.0.1:5173'
const preflight = { origin: PAGE_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' }

const Cors = apiSuite('CORS (PETSTORE_CORS_ORIGINS set)', { corsOrigins: [PAGE_ORIGIN] })

Cors('A preflight OPTIONS needs no key and answers what the API allows, and nothing else', async ({ api }) => {
  const response = await api.request('OPTIONS', '/v1/pets', { key: false, headers: preflight })
  assert.is(response.status, 204)
  assert.is(response.headers.get('access-control-allow-origin'), PAGE_ORIGIN)
  assert.match(response.headers.get('access-control-allow-headers') ?? '', 'Authorization')
  assert.match(response.headers.get('access-control-allow-headers') ?? '', 'Prefer')
  assert.match(response.headers.get('access-control-allow-methods') ?? '', 'GET')
  assert.is(response.text, '')
})

Cors('An allowed origin may read every header a client of this API reads', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets', { headers: { origin: PAGE_ORIGIN } })
  assert.is(response.status, 200)
  assert.is(response.headers.get('access-control-allow-origin'), PAGE_ORIGIN)
  const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim())
  for (const header of [
    'Location',
    'Link',
    'Deprecation',
    'Sunset',
    'X-Request-Id',
    'ETag',
    'RateLimit',
    'RateLimit-Policy',
    'Preference-Applied',
  ]) {
    assert.ok(exposed.includes(header), header)
  }
})

Cors('An origin not on the list gets no CORS headers, and a preflight from it still needs a key', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets', { headers: { origin: 'http://evil.example' } })
  assert.is(response.headers.get('access-control-allow-origin'), null)
  const blocked = await api.request('OPTIONS', '/v1/pets', { key: false, headers: { ...preflight, origin: 'http://evil.example' } })
  assert.is(blocked.status, 401)
})

Cors('Without a key, the actual request is still 401, with CORS headers so the page can read the error', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets', { key: false, headers: { origin: PAGE_ORIGIN } })
  assert.is(response.status, 401)
  assert.is(response.headers.get('access-control-allow-origin'), PAGE_ORIGIN)
})

Cors('Only the API is shared: /metrics and the reference page carry no CORS headers', async ({ api }) => {
  for (const path of ['/docs', '/healthz']) {
    const response = await api.request('GET', path, { key: false, headers: { origin: PAGE_ORIGIN } })
    assert.is(response.headers.get('access-control-allow-origin'), null, path)
  }
})

Cors.run()

const Off = apiSuite('CORS off (the default)')

Off('No response carries CORS headers', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets', { headers: { origin: PAGE_ORIGIN } })
  assert.is(response.headers.get('access-control-allow-origin'), null)
})

Off.run()
