import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { capturedLogger } from '../support/captured-logger.js'
import { parseRawResponse, rawExchange } from '../support/raw-http.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

interface Context {
  api: RunningApi
}

const LIMITS = { headersTimeoutMs: 500, requestTimeoutMs: 1000, keepAliveTimeoutMs: 1000, connectionsCheckingIntervalMs: 100 }

const SlowClients = suite<Context>('Slow, abusive and malformed clients', {} as Context)

SlowClients.before.each(async (context) => {
  context.api = await startApi({ limits: LIMITS })
})
SlowClients.after.each(async (context) => {
  await context.api.close()
})

const assertJsonError = (text: string, status: number, code: string): void => {
  const response = parseRawResponse(text)
  assert.is(response.status, status, text)
  assert.match(response.headers, /content-type: application\/json/i)
  assert.equal(response.body, { code, message: (response.body as { message: string }).message, status })
}

SlowClients(
  'When the headers never finish, then 408 request_timeout after the headers timeout, and others are served meanwhile',
  async ({ api }) => {
    const stalled = rawExchange(api.baseUrl, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n')
    const other = await api.request('GET', '/v1/pets')
    assert.is(other.status, 200)
    assertJsonError((await stalled).text, 408, 'request_timeout')
  },
)

SlowClients('When an upload stalls, then it is cut off with 408 and nothing is stored', async ({ api }) => {
  const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`
  const stalled = rawExchange(api.baseUrl, head)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assertJsonError((await stalled).text, 408, 'request_timeout')
  assert.equal((await api.request('GET', '/v1/pets')).body, [])
})

SlowClients('When the headers are too large, then 431 headers_too_large', async ({ api }) => {
  const { text } = await rawExchange(api.baseUrl, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`)
  assertJsonError(text, 431, 'headers_too_large')
})

SlowClients('When the request is not valid HTTP, then 400 bad_request', async ({ api }) => {
  const { text } = await rawExchange(api.baseUrl, 'THIS IS NOT HTTP\r\n\r\n')
  assertJsonError(text, 400, 'bad_request')
})

SlowClients('Answers Node gives itself are logged like every other, with the request id they carry', async () => {
  const log = capturedLogger()
  const api = await startApi({ limits: LIMITS, logger: log.logger })
  try {
    const { text } = await rawExchange(api.baseUrl, 'THIS IS NOT HTTP\r\n\r\n')
    const requestId = /X-Request-Id: (\S+)/i.exec(text)?.[1]
    const line = log.lines().find((entry) => entry.msg === 'request')
    assert.equal(
      { requestId: line?.requestId, status: line?.status, failure: line?.failure },
      { requestId, status: 400, failure: 'MalformedRequest' },
    )
  } finally {
    await api.close()
  }
})

SlowClients.run()
