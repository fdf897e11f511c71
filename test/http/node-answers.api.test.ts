import { deflateSync, gzipSync } from 'node:zlib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { capturedLogger, type CapturedLogger } from '../support/captured-logger.js'
import { aNewPet } from '../support/pet-builder.js'
import { parseRawResponse, rawExchange } from '../support/raw-http.js'
import { MAX_HEADER_FIELDS } from '../../adapters/http/request-head.js'
import { OTHER_KEY, type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

interface Context {
  api: RunningApi
  log: CapturedLogger
}

const NodeAnswers = suite<Context>("Node's own answers are JSON Errors with a log line", {} as Context)

NodeAnswers.before.each(async (context) => {
  context.log = capturedLogger()
  context.api = await startApi({ logger: context.log.logger })
})
NodeAnswers.after.each(async (context) => {
  await context.api.close()
})

/** A whole JSON Error answer, with the headers every answer carries, that closes the connection. */
const assertJsonError = (text: string, status: number, code: string): Record<string, string> => {
  const response = parseRawResponse(text)
  assert.is(response.status, status, text)
  const headers = Object.fromEntries(
    response.headers
      .split('\r\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  )
  assert.match(headers['content-type'] ?? '', /^application\/json/)
  assert.is(headers['cache-control'], 'no-store')
  assert.is(headers['x-content-type-options'], 'nosniff')
  assert.match(headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/)
  assert.is(headers.connection, 'close')
  assert.equal(response.body, { code, message: (response.body as { message: string }).message, status })
  return headers
}

const requestLines = (log: CapturedLogger): ReadonlyArray<Record<string, unknown>> => log.lines().filter((line) => line.msg === 'request')

NodeAnswers('When a request has no Host, then 400 bad_request as a JSON Error with X-Request-Id, logged', async ({ api, log }) => {
  const { text } = await rawExchange(api.baseUrl, `GET /v1/pets?limit=2 HTTP/1.1\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`)
  const headers = assertJsonError(text, 400, 'bad_request')
  assert.match(text, 'Host header')
  const line = requestLines(log).at(-1)
  assert.equal(
    { method: line?.method, path: line?.path, status: line?.status, failure: line?.failure, requestId: line?.requestId },
    { method: 'GET', path: '/v1/pets', status: 400, failure: 'MissingHost', requestId: headers['x-request-id'] },
  )
})

NodeAnswers('When Host is repeated, empty or not host[:port], then 400 bad_request as a JSON Error, logged', async ({ api, log }) => {
  for (const [hosts, problem] of [
    ['Host: a\r\nHost: b\r\n', 'more than one Host'],
    ['Host: a\r\nHost: a\r\n', 'more than one Host'],
    ['Host:\r\n', 'not a valid host'],
    ['Host: a b\r\n', 'not a valid host'],
    ['Host: a/b\r\n', 'not a valid host'],
  ] as const) {
    const { text } = await rawExchange(api.baseUrl, `GET /v1/pets HTTP/1.1\r\n${hosts}Authorization: Bearer ${TEST_KEY}\r\n\r\n`)
    assertJsonError(text, 400, 'bad_request')
    assert.match(text, problem, hosts)
    assert.is(requestLines(log).at(-1)?.failure, 'InvalidHost')
  }
  for (const host of ['example.com', 'example.com:8080', '127.0.0.1:1', '[::1]:80', 'xn--bcher-kva.example']) {
    const { text } = await rawExchange(
      api.baseUrl,
      `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`,
    )
    assert.is(parseRawResponse(text).status, 200, host)
  }
})

NodeAnswers('When Expect is other than 100-continue, then 417 expectation_failed as a JSON Error, logged', async ({ api, log }) => {
  const { text } = await rawExchange(
    api.baseUrl,
    `GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`,
  )
  assertJsonError(text, 417, 'expectation_failed')
  const line = requestLines(log).at(-1)
  assert.equal({ method: line?.method, path: line?.path, status: line?.status }, { method: 'GET', path: '/v1/pets', status: 417 })
})

NodeAnswers('When Expect is 100-continue, then the request is answered as usual', async ({ api }) => {
  const body = JSON.stringify(aNewPet())
  const { text } = await rawExchange(
    api.baseUrl,
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  )
  assert.match(text, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 Created/)
})

NodeAnswers(
  'When the method is CONNECT, then 405 method_not_allowed as a JSON Error and the connection closes, logged',
  async ({ api, log }) => {
    const { text } = await rawExchange(api.baseUrl, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
    const headers = assertJsonError(text, 405, 'method_not_allowed')
    assert.is(headers.allow, '')
    const line = requestLines(log).at(-1)
    assert.equal(
      { method: line?.method, path: line?.path, status: line?.status, failure: line?.failure },
      { method: 'CONNECT', path: 'example.com:443', status: 405, failure: 'TunnelRefused' },
    )
  },
)

NodeAnswers(
  'When a gzip or deflate create comes from a client that half-closes after sending, then 201 like the plain body',
  async ({ api }) => {
    const json = JSON.stringify(aNewPet())
    const bodies: ReadonlyArray<readonly [string, Buffer]> = [
      ['identity', Buffer.from(json)],
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
    ]
    for (const [encoding, body] of bodies) {
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const head =
          `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
          `Content-Encoding: ${encoding}\r\nContent-Length: ${body.length}\r\n\r\n`
        const { text } = await rawExchange(api.baseUrl, Buffer.concat([Buffer.from(head), body]), { halfClose: true })
        assert.is(parseRawResponse(text).status, 201, `${encoding}, attempt ${attempt + 1}: ${text}`)
      }
    }
    assert.is(((await api.request('GET', '/v1/pets?limit=100')).body as unknown[]).length, 30)
  },
)

NodeAnswers(
  'When a request has more than 2000 header fields, then 431 headers_too_large: a second Authorization or Host past them cannot pass unseen',
  async ({ api, log }) => {
    const fields = (count: number): string => Array.from({ length: count }, (_, index) => `X-${index}: a\r\n`).join('')
    const head = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n`
    for (const last of [`Authorization: Bearer ${OTHER_KEY}\r\n`, 'Host: y\r\n', 'X-Last: a\r\n']) {
      const { text } = await rawExchange(api.baseUrl, `${head}${fields(MAX_HEADER_FIELDS - 2)}${last}\r\n`)
      assertJsonError(text, 431, 'headers_too_large')
      assert.match(text, `more than ${MAX_HEADER_FIELDS} header fields`)
    }
    assert.equal(
      requestLines(log).map((line) => [line.method, line.path, line.status, line.failure]),
      Array.from({ length: 3 }, () => ['GET', '/v1/pets', 431, 'TooManyHeaderFields']),
    )
    // Exactly 2000 fields are a request like any other.
    const { text } = await rawExchange(api.baseUrl, `${head}${fields(MAX_HEADER_FIELDS - 3)}Connection: close\r\n\r\n`)
    assert.is(parseRawResponse(text).status, 200)
  },
)

NodeAnswers.run()
