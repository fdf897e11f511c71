import * as E from 'fp-ts/Either'
import * as assert from 'uvu/assert'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { capturedLogger } from '../support/captured-logger.js'
import { parseRawResponse, rawExchange } from '../support/raw-http.js'
import { startApi } from '../support/start-api.js'

const Routing = apiSuite('Routing, methods and common headers')

Routing('When a path under /v1 is unknown, then 404 route_not_found with a key', async ({ api }) => {
  assertError(await api.request('GET', '/v1/store/orders'), 404, 'route_not_found')
  assertError(await api.request('GET', '/v1/pets/1/owner'), 404, 'route_not_found')
})

Routing('When a path outside /v1 is unknown, then 404 route_not_found without a key', async ({ api }) => {
  assertError(await api.request('GET', '/pets', { key: false }), 404, 'route_not_found')
})

Routing('When a path has a trailing slash, then it is not the resource: each has one URL', async ({ api }) => {
  assertError(await api.request('GET', '/v1/pets/'), 404, 'route_not_found')
  assertError(await api.request('GET', '/v1/openapi.json/'), 404, 'route_not_found')
})

Routing('When a method is not supported, then 405 with Allow', async ({ api }) => {
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    const list = await api.request(method, '/v1/pets')
    assertError(list, 405, 'method_not_allowed')
    assert.is(list.headers.get('allow'), 'GET, HEAD, POST')
    const one = await api.request(method, '/v1/pets/1')
    assertError(one, 405, 'method_not_allowed')
    assert.is(one.headers.get('allow'), 'GET, HEAD')
  }
})

Routing('When a method no route knows is sent, then 405 with Allow, never 501', async ({ api }) => {
  const response = await api.request('PROPFIND', '/v1/pets')
  assertError(response, 405, 'method_not_allowed')
  assert.is(response.headers.get('allow'), 'GET, HEAD, POST')
})

Routing('When OPTIONS is sent with a key, then 204 with Allow', async ({ api }) => {
  const response = await api.request('OPTIONS', '/v1/pets')
  assert.is(response.status, 204)
  assert.is(response.headers.get('allow'), 'GET, HEAD, POST')
  assert.is(response.text, '')
})

Routing('When OPTIONS is sent to a path no route has, then 404 route_not_found, logged as a request and never as an error', async () => {
  const { logger, lines } = capturedLogger()
  const api = await startApi({ logger })
  try {
    assertError(await api.request('OPTIONS', '/nope', { key: false }), 404, 'route_not_found')
    assertError(await api.request('OPTIONS', '/v1/store/orders'), 404, 'route_not_found')
    // The asterisk form (RFC 9112 §3.2.4) names no resource of this service either.
    const asterisk = parseRawResponse((await rawExchange(api.baseUrl, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).text)
    assert.is(asterisk.status, 404)
    assert.is((asterisk.body as { code: string }).code, 'route_not_found')
  } finally {
    await api.close()
  }
  const requests = lines().filter((line) => line.msg === 'request')
  assert.equal(
    requests.map((line) => [line.status, line.failure, line.level]),
    [
      [404, 'RouteNotFound', 30],
      [404, 'RouteNotFound', 30],
      [404, 'RouteNotFound', 30],
    ],
  )
  assert.is(lines().filter((line) => Number(line.level) >= 50).length, 0)
})

Routing('An extension’s routes answer only what the app’s do not: one on an app’s path never takes it over', async () => {
  const api = await startApi({
    extension: {
      contract: (served) => ({ ...served }),
      mount: ({ router }) => {
        router.get('/v1/pets', (ctx) => void (ctx.status = 418))
        router.delete('/v1/extension', (ctx) => void (ctx.status = 204))
        return { links: {} }
      },
    },
  })
  try {
    assert.is((await api.request('GET', '/v1/pets')).status, 200)
    assert.is((await api.request('DELETE', '/v1/extension', { scripted: true })).status, 204)
    const refused = await api.request('PUT', '/v1/extension', { scripted: true })
    assertError(refused, 405, 'method_not_allowed')
    assert.is(refused.headers.get('allow'), 'DELETE')
  } finally {
    await api.close()
  }
})

Routing('When HEAD is sent to the list, then it answers like GET without a body', async ({ api }) => {
  const response = await api.request('HEAD', '/v1/pets')
  assert.is(response.status, 200)
  assert.is(response.text, '')
})

Routing('Every response carries nosniff and no X-Powered-By', async ({ api }) => {
  for (const [method, path, key] of [
    ['GET', '/v1/pets', undefined],
    ['GET', '/v1/pets', false],
    ['GET', '/nowhere', false],
    ['DELETE', '/v1/pets', undefined],
  ] as const) {
    const response = await api.request(method, path, key === false ? { key } : {})
    assert.is(response.headers.get('x-content-type-options'), 'nosniff')
    assert.is(response.headers.get('x-powered-by'), null)
  }
})

Routing.run()

const Failures = apiSuite('Unexpected failures', {
  pets: {
    ...memoryPetRepository(),
    list: () => () => Promise.reject(new Error('boom at /secret/path/store.ts:12')),
  },
})

Failures('When something fails unexpectedly, then 500 internal_error with a generic message', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets')
  const message = assertError(response, 500, 'internal_error')
  assert.not.match(message, 'boom')
  assert.not.match(response.text, '/secret/path')
})

Failures.run()

const Unavailable = apiSuite('Store unavailable', {
  pets: { ...memoryPetRepository(), list: () => async () => E.left({ _tag: 'StoreUnavailable', detail: 'timeout' } as const) },
})

Unavailable('When the store is unavailable, then 503 service_unavailable with Retry-After', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets')
  assertError(response, 503, 'service_unavailable')
  assert.is(response.headers.get('retry-after'), '5')
})

Unavailable.run()
