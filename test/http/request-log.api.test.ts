import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { keyIdOf } from '../../adapters/auth/static-key-authenticator.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { assertError } from '../support/api-suite.js'
import { capturedLogger } from '../support/captured-logger.js'
import { aNewPet } from '../support/pet-builder.js'
import { rawExchange } from '../support/raw-http.js'
import { OTHER_KEY, startApi, TEST_KEY } from '../support/start-api.js'

const RequestLog = suite('Request logs and X-Request-Id')

RequestLog('writes one JSON line per request with method, route, status, duration, request id and key id', async () => {
  const log = capturedLogger()
  const api = await startApi({ logger: log.logger })
  try {
    const response = await api.request('GET', '/v1/pets/7', { headers: { 'x-request-id': 'trace-abc-123' } })
    assert.is(response.headers.get('x-request-id'), 'trace-abc-123')
    const lines = log.lines().filter((line) => line.msg === 'request')
    assert.is(lines.length, 1)
    const line = lines[0] ?? {}
    assert.equal(
      { requestId: line.requestId, method: line.method, route: line.route, status: line.status, keyId: line.keyId, failure: line.failure },
      {
        requestId: 'trace-abc-123',
        method: 'GET',
        route: '/v1/pets/:petId',
        status: 404,
        keyId: keyIdOf(TEST_KEY),
        failure: 'PetNotFound',
      },
    )
    assert.type(line.durationMs, 'number')
  } finally {
    await api.close()
  }
})

RequestLog('writes the same fields, in the same order, for an answer the HTTP server gives itself, less durationMs', async () => {
  const log = capturedLogger()
  const api = await startApi({ logger: log.logger })
  try {
    await api.request('GET', '/nowhere', { key: false })
    await rawExchange(api.baseUrl, 'GET /v1/pets HTTP/1.1\r\n\r\n')
  } finally {
    await api.close()
  }
  const [byApp, byServer] = log.lines().filter((line) => line.msg === 'request')
  const fields = [
    'level',
    'time',
    'pid',
    'hostname',
    'requestId',
    'method',
    'path',
    'route',
    'status',
    'durationMs',
    'keyId',
    'failure',
    'msg',
  ]
  assert.equal(Object.keys(byApp ?? {}), fields)
  assert.equal(
    Object.keys(byServer ?? {}),
    fields.filter((field) => field !== 'durationMs'),
  )
})

RequestLog('never logs or echoes an API key: one sent as X-Request-Id gets a new id, one in the path is redacted', async () => {
  const log = capturedLogger()
  const api = await startApi({ logger: log.logger })
  try {
    const asId = await api.request('GET', '/v1/pets', { headers: { 'x-request-id': OTHER_KEY } })
    const withKey = await api.request('GET', `/v1/pets/${OTHER_KEY}`, { headers: { 'x-request-id': `trace-${TEST_KEY}` } })
    for (const response of [asId, withKey]) assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
    // The HTTP server's own answers too: a request without Host, refused before Koa sees it.
    const refused = await rawExchange(api.baseUrl, `GET /v1/${TEST_KEY} HTTP/1.1\r\nX-Request-Id: ${TEST_KEY}\r\n\r\n`)
    assert.match(refused.text, /^HTTP\/1\.1 400 .*\r\nX-Request-Id: [0-9a-f-]{36}\r\n/s)
    const written = log.raw()
    assert.is(log.lines().filter((line) => line.msg === 'request').length, 3)
    assert.not.match(written, TEST_KEY)
    assert.not.match(written, OTHER_KEY)
    assert.match(written, '"path":"/v1/pets/[redacted]"')
  } finally {
    await api.close()
  }
})

RequestLog('generates a request id when the incoming one is missing or not sane, and returns it on every response', async () => {
  const api = await startApi()
  try {
    const ids = new Set<string>()
    for (const incoming of [undefined, '', 'has spaces', 'x'.repeat(200)]) {
      const response = await api.request('GET', '/nowhere', {
        key: false,
        ...(incoming === undefined ? {} : { headers: { 'x-request-id': incoming } }),
      })
      const id = response.headers.get('x-request-id') ?? ''
      assert.match(id, /^[0-9a-f-]{36}$/)
      ids.add(id)
    }
    assert.is(ids.size, 4)
  } finally {
    await api.close()
  }
})

RequestLog('never logs a key or the Authorization header, at the most verbose level, whatever is sent', async () => {
  const log = capturedLogger()
  const failing = { ...memoryPetRepository(), list: () => () => Promise.reject(new Error('driver failure')) }
  const api = await startApi({ logger: log.logger, pets: failing })
  const sentKeys = [TEST_KEY, OTHER_KEY, 'wrong-key-0123456789abcdef']
  try {
    await api.request('POST', '/v1/pets', { body: aNewPet() })
    await api.request('GET', '/v1/pets/1', { key: OTHER_KEY })
    await api.request('GET', '/v1/pets/1', { key: 'wrong-key-0123456789abcdef' })
    await api.request('GET', '/v1/pets', { key: false, headers: { authorization: `Basic ${TEST_KEY}` } })
    await api.request('GET', '/v1/pets', { key: false, headers: { authorization: `Bearer ${TEST_KEY} ${OTHER_KEY}` } })
    const failed = await api.request('GET', '/v1/pets')
    assert.is(failed.status, 500)
  } finally {
    await api.close()
  }
  const lines = log.lines()
  assert.ok(lines.filter((line) => line.msg === 'request').length >= 6, 'request lines were captured')
  assert.ok(
    lines.some((line) => line.level === 50),
    'the 500 was logged as an error',
  )
  for (const key of sentKeys) assert.not.match(log.raw(), key)
  assert.not.match(log.raw().toLowerCase(), 'authorization')
})

RequestLog('logs why the store was unavailable, which the client is not told', async () => {
  const log = capturedLogger()
  const down = {
    ...memoryPetRepository(),
    list: () => async () => E.left({ _tag: 'StoreUnavailable', detail: 'connection refused' } as const),
  }
  const api = await startApi({ logger: log.logger, pets: down })
  try {
    const response = await api.request('GET', '/v1/pets')
    assert.is(response.status, 503)
    assert.not.match(response.text, 'connection refused')
  } finally {
    await api.close()
  }
  const line = log.lines().find((entry) => entry.msg === 'request')
  assert.is(line?.detail, 'connection refused')
})

RequestLog('answers a store failure no retry fixes with 500 and no Retry-After, and logs it as an error with its detail', async () => {
  const log = capturedLogger()
  const refused = {
    ...memoryPetRepository(),
    insert: () => async () =>
      E.left({ _tag: 'StoreFailed', detail: 'insert pet: MongoServerError (code 13): not authorized on pets' } as const),
  }
  const api = await startApi({ logger: log.logger, pets: refused })
  try {
    const response = await api.request('POST', '/v1/pets', { body: aNewPet() })
    assertError(response, 500, 'internal_error')
    assert.is(response.headers.get('retry-after'), null)
    assert.not.match(response.text, 'authorized')
  } finally {
    await api.close()
  }
  const line = log.lines().find((entry) => entry.msg === 'request')
  assert.equal(
    { level: line?.level, status: line?.status, failure: line?.failure, detail: line?.detail },
    { level: 50, status: 500, failure: 'StoreFailed', detail: 'insert pet: MongoServerError (code 13): not authorized on pets' },
  )
})

RequestLog('says on every line the method and path asked for (no query, bounded), and for a 401 why, never the key', async () => {
  const log = capturedLogger()
  const api = await startApi({ logger: log.logger })
  try {
    await api.request('GET', '/v1/pets?limit=5&status=sold')
    await api.request('GET', '/v1/pets', { key: false })
    await api.request('GET', '/v1/pets/7', { key: false, headers: { authorization: 'Basic abc' } })
    await api.request('POST', '/v1/pets', { key: 'wrong-key-0123456789abcdef', body: aNewPet() })
    await api.request('GET', '/nowhere?secret=1', { key: false })
    await api.request('GET', `/v1/${'x'.repeat(500)}`)
  } finally {
    await api.close()
  }
  const lines = log.lines().filter((line) => line.msg === 'request')
  const seen = lines.map(({ method, path, status, reason }) => ({ method, path, status, reason }))
  assert.equal(seen.slice(0, 5), [
    { method: 'GET', path: '/v1/pets', status: 200, reason: undefined },
    { method: 'GET', path: '/v1/pets', status: 401, reason: 'missing' },
    { method: 'GET', path: '/v1/pets/7', status: 401, reason: 'malformed' },
    { method: 'POST', path: '/v1/pets', status: 401, reason: 'invalid' },
    { method: 'GET', path: '/nowhere', status: 404, reason: undefined },
  ])
  assert.is(lines[5]?.path, `/v1/${'x'.repeat(196)}…`)
  assert.not.match(log.raw(), 'wrong-key')
  assert.not.match(log.raw(), 'secret')
})

RequestLog.run()
