import { connect, type Socket } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { capturedLogger } from '../support/captured-logger.js'
import { parseRawResponse, rawExchange } from '../support/raw-http.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'
import { until } from '../support/until.js'

interface Context {
  api: RunningApi
}

const LIMITS = {
  headersTimeoutMs: 500,
  requestTimeoutMs: 1000,
  keepAliveTimeoutMs: 1000,
  connectionsCheckingIntervalMs: 100,
  lingerMs: 200,
}

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

/** A connection whose client sends `bytes` and reads nothing until `read`, then all the server sent until it closed. */
const unreadConnection = (baseUrl: string, bytes: string): { socket: Socket; read: () => Promise<string> } => {
  const { hostname, port } = new URL(baseUrl)
  const socket = connect(Number(port), hostname)
  socket.on('error', () => undefined)
  // Before any 'data' listener: the answer waits in the kernel's buffer.
  socket.pause()
  socket.write(bytes)
  const read = (): Promise<string> =>
    new Promise((resolve) => {
      let text = ''
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      socket.on('close', () => resolve(text))
      socket.resume()
    })
  return { socket, read }
}

SlowClients(
  'When a client neither reads nor closes after the server answered it itself, then its connection is gone within the linger, its answer kept',
  async ({ api }) => {
    const create = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n`
    const clients = (
      [
        ['idle', '', 408],
        ['partial headers', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n', 408],
        ['partial body', `${create}Content-Length: 100\r\n\r\n{"name":`, 408],
        ['bad bytes', 'THIS IS NOT HTTP\r\n\r\n', 400],
        ['a tunnel', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
      ] as const
    ).map(([what, bytes, status]) => ({ what, status, connection: unreadConnection(api.baseUrl, bytes) }))
    // And one that keeps sending bytes after its 400.
    const sending = unreadConnection(api.baseUrl, 'THIS IS NOT HTTP\r\n\r\n')
    const more = setInterval(() => sending.socket.write('more bytes that are not HTTP\r\n'), 10)
    try {
      await until(async () => (await api.openConnections()) === clients.length + 1, 'the server accepted every connection')
      await until(async () => (await api.openConnections()) === 0, 'the server closed every connection')
    } finally {
      clearInterval(more)
    }
    for (const { what, status, connection } of clients) assert.is(parseRawResponse(await connection.read()).status, status, what)
  },
)

SlowClients.run()
