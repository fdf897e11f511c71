import * as assert from 'uvu/assert'
import { apiSuite, assertError } from '../support/api-suite.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { aNewPet } from '../support/pet-builder.js'
import { OTHER_KEY, startApi, TEST_KEY } from '../support/start-api.js'

const Auth = apiSuite('Authentication under /v1')

Auth('When the credential is missing, then 401 with an Error and a Bearer challenge without error', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets', { key: false })
  assertError(response, 401, 'unauthorized')
  assert.is(response.headers.get('www-authenticate'), 'Bearer realm="petstore"')
})

Auth('When the key is wrong, then 401 with error="invalid_token", and the key is not echoed', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets', { key: 'wrong-key-0123456789abcdef' })
  assertError(response, 401, 'unauthorized')
  assert.is(response.headers.get('www-authenticate'), 'Bearer realm="petstore", error="invalid_token"')
  assert.not.match(response.text, 'wrong-key')
})

Auth('When the Authorization header is malformed, then 401 with error="invalid_token"', async ({ api }) => {
  for (const header of [
    TEST_KEY,
    `Basic ${TEST_KEY}`,
    'Bearer',
    'Bearer ',
    `Bearer ${TEST_KEY} extra`,
    `Bearer\t${TEST_KEY}`,
    `Token ${TEST_KEY}`,
  ]) {
    const response = await api.request('GET', '/v1/pets', { key: false, headers: { authorization: header } })
    assertError(response, 401, 'unauthorized')
    assert.is(response.headers.get('www-authenticate'), 'Bearer realm="petstore", error="invalid_token"', header)
  }
})

Auth('When the scheme is written in any case, then the right key passes', async ({ api }) => {
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
    const response = await api.request('GET', '/v1/pets', { key: false, headers: { authorization: `${scheme} ${TEST_KEY}` } })
    assert.is(response.status, 200, scheme)
  }
})

Auth('When any configured key is sent, then it passes', async ({ api }) => {
  assert.is((await api.request('GET', '/v1/pets', { key: OTHER_KEY })).status, 200)
})

Auth('Every operation requires authentication, also unknown paths and wrong methods under /v1', async ({ api }) => {
  for (const [method, path] of [
    ['GET', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['GET', '/v1/pets/1'],
    ['GET', '/v1/store/orders'],
    ['DELETE', '/v1/pets/1'],
    ['GET', '/v1'],
    ['OPTIONS', '/v1/pets'],
  ] as const) {
    assertError(await api.request(method, path, { key: false }), 401, 'unauthorized')
  }
})

Auth('When the path prefix is written in another case, then no route answers and nothing is served without a key', async ({ api }) => {
  for (const [method, path] of [
    ['GET', '/V1/pets'],
    ['POST', '/V1/pets'],
    ['GET', '/V1/PETS/1'],
    ['GET', '/v1/PETS'],
  ] as const) {
    const response = await api.request(method, path, { key: false, body: method === 'POST' ? aNewPet() : undefined })
    assert.ok(response.status === 401 || response.status === 404, `${method} ${path}: ${response.status}`)
  }
  assert.equal((await api.request('GET', '/v1/pets')).body, [])
})

Auth('When the key is wrong on createPet, then nothing is stored', async ({ api }) => {
  await api.request('POST', '/v1/pets', { key: 'wrong-key-0123456789abcdef', body: aNewPet() })
  assert.equal((await api.request('GET', '/v1/pets')).body, [])
})

Auth('When two Authorization headers are sent, then 400 invalid_request on every path that needs a key', async ({ api }) => {
  const challenge = 'Bearer realm="petstore", error="invalid_request"'
  const pairs: ReadonlyArray<readonly [string, string]> = [
    [`Bearer ${TEST_KEY}`, 'Bearer wrong-key-0123456789abcdef'],
    [`Bearer ${TEST_KEY}`, `Bearer ${TEST_KEY}`],
    ['Bearer wrong-key-0123456789abcdef', `Bearer ${TEST_KEY}`],
  ]
  const requests: ReadonlyArray<readonly [string, string]> = [
    ['GET', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['GET', '/v1/pets/1'],
    ['DELETE', '/v1/pets/1'],
    ['GET', '/v1/store/orders'],
  ]
  for (const [first, second] of pairs) {
    for (const [method, path] of requests) {
      const response = await api.request(method, path, {
        key: false,
        ...(method === 'POST' ? { body: aNewPet() } : {}),
        headerLines: [
          ['Authorization', first],
          ['Authorization', second],
        ],
      })
      assertError(response, 400, 'invalid_request')
      assert.is(response.headers.get('www-authenticate'), challenge, `${method} ${path}`)
    }
  }
  assert.equal((await api.request('GET', '/v1/pets')).body, [], 'nothing was created')
  const open = await api.request('GET', '/v1/openapi.json', {
    key: false,
    headerLines: [
      ['Authorization', 'a'],
      ['Authorization', 'b'],
    ],
  })
  assert.is(open.status, 200, 'a path that needs no key ignores them')
})

Auth('When two Authorization headers reach the sandbox reset, then 400 invalid_request too', async () => {
  const api = await startApi({ sandboxes: memoryStore().dataSets })
  try {
    const response = await api.request('POST', '/v1/sandbox/reset', {
      key: false,
      headerLines: [
        ['Authorization', `Bearer ${TEST_KEY}`],
        ['Authorization', `Bearer ${OTHER_KEY}`],
      ],
    })
    assertError(response, 400, 'invalid_request')
  } finally {
    await api.close()
  }
})

Auth.run()
