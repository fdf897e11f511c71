import * as assert from 'uvu/assert'
import { apiSuite, assertError } from '../support/api-suite.js'

const DocsPage = apiSuite('GET /docs')

DocsPage('serves the reference page without a key, with a Content-Security-Policy of its own origin only', async ({ api }) => {
  const response = await api.request('GET', '/docs', { key: false })
  assert.is(response.status, 200)
  assert.match(response.headers.get('content-type') ?? '', 'text/html')
  const csp = response.headers.get('content-security-policy') ?? ''
  assert.match(csp, "default-src 'self'")
  assert.not.match(csp, 'unsafe-inline')
  assert.not.match(response.text, /https?:\/\//)
})

DocsPage('serves its assets from the package, not from a CDN', async ({ api }) => {
  for (const asset of ['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js', '/docs/favicon-32x32.png']) {
    const response = await api.request('GET', asset, { key: false })
    assert.is(response.status, 200, asset)
    assert.ok(response.text.length > 0, asset)
  }
})

DocsPage('answers 404 for a file that is not one of its assets', async ({ api }) => {
  assertError(await api.request('GET', '/docs/package.json', { key: false }), 404, 'route_not_found')
  assertError(await api.request('GET', '/docs/..%2Fpackage.json', { key: false }), 404, 'route_not_found')
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    assertError(await api.request('GET', `/docs/${name}`, { key: false }), 404, 'route_not_found')
  }
})

DocsPage.run()
