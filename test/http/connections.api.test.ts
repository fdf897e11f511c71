import { connect } from 'node:net'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { capturedLogger } from '../support/captured-logger.js'
import { aNewPet } from '../support/pet-builder.js'
import { rawExchange } from '../support/raw-http.js'
import { staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'
import { DEFAULT_SERVER_LIMITS } from '../../adapters/http/http-server.js'
import type { Authenticator } from '../../src/domain/authenticator.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'
import { until } from '../support/until.js'

interface Context {
  api: RunningApi
}

/**
 * What a connection carries: answers in the order of the requests, the requests carried out before a
 * failure of the connection answered before it, and no connection left expecting a body nobody reads.
 */
const Connections = suite<Context>('Connections: every request carried out is answered, in order', {} as Context)

Connections.before.each(async (context) => {
  context.api = await startApi()
})
Connections.after.each(async (context) => {
  await context.api.close()
})

const BODY = JSON.stringify(aNewPet())

/** A create padded (with a header of spaces) to exactly `size` bytes. */
const paddedCreate = (size: number, extraHeaders = ''): string => {
  const head =
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${BODY.length}\r\n${extraHeaders}X-Pad: `
  return `${head}${' '.repeat(size - head.length - 4 - BODY.length)}\r\n\r\n${BODY}`
}

/** The statuses of every answer in what the server sent, in order. */
const statuses = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((match) => Number(match[1]))

const storedPets = async (api: RunningApi): Promise<number> => ((await api.request('GET', '/v1/pets?limit=100')).body as unknown[]).length

Connections('When bytes that are not HTTP follow a create in the same write, then the create is answered 201 first', async ({ api }) => {
  const create = paddedCreate(65_536, 'Connection: close\r\n')
  assert.is(create.length, 65_536)
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const { text } = await rawExchange(api.baseUrl, `${create}GARBAGE\r\n\r\n`)
    assert.is(statuses(text)[0], 201, text.slice(0, 200))
  }
  assert.is(await storedPets(api), 5)
})

Connections('When a request with oversized headers follows a create, then 201 for the create, then 431', async ({ api }) => {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const oversized = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`
    const { text } = await rawExchange(api.baseUrl, `${paddedCreate(65_536)}${oversized}`)
    assert.equal(statuses(text), [201, 431])
  }
  assert.is(await storedPets(api), 5)
})

Connections('When bad bytes follow 600 pipelined requests, then all 600 are answered, in order, then 400', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const get = `GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`
  const { text } = await rawExchange(api.baseUrl, `${get.repeat(600)}BAD\r\n\r\n`)
  assert.equal(statuses(text), [...Array.from({ length: 600 }, () => 200), 400])
})

/** A chunked create of `bytes` bytes of JSON, more than the 1 MiB limit allows, then a GET on the same connection. */
const oversizedChunkedCreate = (bytes: number): string => {
  const chunk = 'x'.repeat(64 * 1024)
  const chunks = Array.from({ length: bytes / chunk.length }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`)
  return (
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
    `Transfer-Encoding: chunked\r\n\r\n${chunks.join('')}0\r\n\r\n`
  )
}

Connections(
  'When an answer is sent before the body was read to its end, then it says Connection: close and the connection closes',
  async ({ api }) => {
    const next = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`
    const tooLarge = await rawExchange(api.baseUrl, `${oversizedChunkedCreate(2 * 1024 * 1024)}${next}`)
    assert.equal(statuses(tooLarge.text), [413])
    assert.match(tooLarge.text, /\r\nConnection: close\r\n/i)

    const corrupt = Buffer.concat([gzipSync(BODY).subarray(0, 12), Buffer.alloc(512 * 1024, 0xff)])
    const head =
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
      `Content-Encoding: gzip\r\nContent-Length: ${corrupt.length}\r\n\r\n`
    const last = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`
    const undecodable = await rawExchange(api.baseUrl, Buffer.concat([Buffer.from(head), corrupt, Buffer.from(last)]))
    // Either the rest of the body was read and the next request answered, or the 400 said the connection closes.
    const answered = statuses(undecodable.text)
    const closed = answered.length === 1 && /\r\nConnection: close\r\n/i.test(undecodable.text)
    assert.ok((answered[0] === 400 && answered[1] === 200) || closed, undecodable.text)
    assert.is(await storedPets(api), 0)
  },
)

Connections('When an answer follows a body read to its end, then the connection stays open for the next request', async ({ api }) => {
  const create = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi`
  const last = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`
  const { text } = await rawExchange(api.baseUrl, `${paddedCreate(1000)}${create}${last}`)
  assert.equal(statuses(text), [201, 415, 200])
})

/** A create whose head announces `length` bytes of body, followed by `sent` of them, with the given key. */
const createArriving = (key: string, length: number, sent: string): string =>
  `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${length}\r\n\r\n${sent}`

Connections(
  'When a request is answered before its body has all arrived, then that answer is its only one, even when the rest never comes',
  async () => {
    // A request timeout short enough to pass while the test waits for the connection to end.
    const api = await startApi({
      limits: { ...DEFAULT_SERVER_LIMITS, headersTimeoutMs: 300, requestTimeoutMs: 300, connectionsCheckingIntervalMs: 50 },
    })
    try {
      const { text } = await rawExchange(api.baseUrl, createArriving('not-a-key', 100, '{"name":'))
      assert.equal(statuses(text), [401])
    } finally {
      await api.close()
    }
  },
)

Connections('When the rest of a body answered early arrives, then the connection carries the next request', async ({ api }) => {
  const last = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`
  const { text } = await rawExchange(api.baseUrl, createArriving('not-a-key', BODY.length, BODY.slice(0, 8)), {
    later: `${BODY.slice(8)}${last}`,
  })
  assert.equal(statuses(text), [401, 200])
  assert.is(await storedPets(api), 0)
})

Connections(
  'When a body is refused for its announced size, then the 413 says Connection: close and the connection closes',
  async ({ api }) => {
    const { text } = await rawExchange(api.baseUrl, createArriving(TEST_KEY, 2 * 1024 * 1024, '{"name":'))
    assert.equal(statuses(text), [413])
    assert.match(text, /\r\nConnection: close\r\n/i)
  },
)

/** A create's body as sent with each content coding. */
const CODED_BODIES: ReadonlyArray<readonly [string, Buffer]> = [
  ['identity', Buffer.from(BODY)],
  ['gzip', gzipSync(BODY)],
  ['deflate', deflateSync(BODY)],
  ['br', brotliCompressSync(BODY)],
]

Connections(
  'When a client gives up mid-upload, plain or compressed, then the request is logged once, as 499 ConnectionLost, and counted once',
  async () => {
    const log = capturedLogger()
    const keys = staticKeyAuthenticator([TEST_KEY])
    // The service has read the request's head (and the start of its body) once it asks who the key is.
    let authenticated = 0
    const authenticator: Authenticator = { authenticate: (key) => (authenticated++, keys.authenticate(key)) }
    const api = await startApi({ logger: log.logger, metrics: true, authenticator })
    try {
      const { hostname, port } = new URL(api.baseUrl)
      for (const [encoding, body] of CODED_BODIES) {
        for (const gives of ['half-closes', 'resets'] as const) {
          const socket = connect(Number(port), hostname)
          socket.on('error', () => undefined)
          const [before, asked] = [log.lines().length, authenticated]
          const head =
            `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
            `Content-Encoding: ${encoding}\r\nContent-Length: ${body.length}\r\n\r\n`
          socket.write(Buffer.concat([Buffer.from(head), body.subarray(0, 4)]))
          // Once the service has the request (its body still arriving), the client gives up.
          await until(() => authenticated > asked, 'the service read the request')
          if (gives === 'half-closes') socket.end()
          else socket.resetAndDestroy()
          await until(
            () =>
              log
                .lines()
                .slice(before)
                .some((line) => line.failure === 'ConnectionLost'),
            'the request was logged',
          )
          // Everything the service logs for it: the line of the request, and nothing of the HTTP server's.
          const lines = log
            .lines()
            .slice(before)
            .filter((line) => line.msg === 'request')
          assert.equal(
            lines.map((line) => [line.method, line.path, line.status, line.failure]),
            [['POST', '/v1/pets', 499, 'ConnectionLost']],
            `${encoding}, ${gives}`,
          )
        }
      }
      const metrics = (await api.request('GET', '/metrics', { key: false })).text
      assert.match(metrics, `petstore_http_requests_total{method="POST",route="/v1/pets",status="499"} ${2 * CODED_BODIES.length}`)
      assert.not.match(metrics, 'status="400"')
    } finally {
      await api.close()
    }
  },
)

Connections('When an upload stalls until the request timeout, then its 408 is its one log line, with its method and path', async () => {
  const log = capturedLogger()
  const limits = { ...DEFAULT_SERVER_LIMITS, headersTimeoutMs: 300, requestTimeoutMs: 300, connectionsCheckingIntervalMs: 50 }
  const api = await startApi({ logger: log.logger, limits })
  try {
    const { text } = await rawExchange(api.baseUrl, createArriving(TEST_KEY, 100, '{"name":'))
    assert.equal(statuses(text), [408])
    const requestId = /\r\nX-Request-Id: (\S+)\r\n/i.exec(text)?.[1]
    await until(() => log.lines().filter((line) => line.msg === 'request').length > 0, 'the request was logged')
    // Koa's own line, had it been written, comes once the connection has closed, which it has.
    await api.close()
    const lines = log.lines().filter((line) => line.msg === 'request')
    assert.equal(
      lines.map((line) => [line.requestId, line.method, line.path, line.status, line.failure]),
      [[requestId, 'POST', '/v1/pets', 408, 'RequestTimeout']],
    )
  } finally {
    await api.close()
  }
})

Connections.run()
