import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { DEFAULT_SERVER_LIMITS } from '../../adapters/http/http-server.js'
import { capturedLogger } from '../support/captured-logger.js'
import { aNewPet } from '../support/pet-builder.js'
import { rawConnection, rawExchange } from '../support/raw-http.js'
import { SEED } from '../support/sandbox-spaces.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'
import { until } from '../support/until.js'

/**
 * Node sends nothing on a connection after an answer that closes it, yet parses what arrives after
 * that answer all the same. A request carried out then would never be answered, and its client,
 * told 408 or 400, would retry it: no request is carried out once its connection was answered.
 */
const AnsweredConnections = suite('No request is carried out once its connection was answered')

const BODY = JSON.stringify(aNewPet())
const CREATE_HEAD =
  `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${BODY.length}\r\n\r\n`
const CREATE = `${CREATE_HEAD}${BODY}`

/** Timeouts short enough to pass while a test holds the event loop. */
const LIMITS = { ...DEFAULT_SERVER_LIMITS, headersTimeoutMs: 100, requestTimeoutMs: 100, connectionsCheckingIntervalMs: 20 }

/** The statuses of every answer in what the server sent, in order. */
const statuses = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((match) => Number(match[1]))

const storedPets = async (api: RunningApi): Promise<number> => ((await api.request('GET', '/v1/pets?limit=100')).body as unknown[]).length

/** The method, path, status and failure of each request line logged. */
const requestLines = (lines: ReadonlyArray<Record<string, unknown>>): unknown[][] =>
  lines.filter((line) => line.msg === 'request').map((line) => [line.method, line.path, line.status, line.failure])

/**
 * Holds the event loop, as a heavy request or a GC pause would, until `holds`: nothing the server
 * does in the meantime (reading a socket, checking its timeouts) happens before it is true.
 */
const stallUntil = (holds: () => boolean): void => {
  while (!holds()) continue
}

for (const [mode, options, seeded] of [
  ['by default', {}, 0],
  ['with the test target', { sandboxes: memoryStore(SEED).dataSets }, SEED.length],
] as const) {
  AnsweredConnections(
    `When a create arrives on an idle connection as its headers timeout passes in a stalled event loop, then it is answered 408 and not carried out (${mode})`,
    async () => {
      const log = capturedLogger()
      const api = await startApi({ ...options, logger: log.logger, limits: LIMITS })
      try {
        const connection = rawConnection(api.baseUrl)
        // From here on, the server counts the connection's headers timeout.
        await until(async () => (await api.openConnections()) === 1, 'the server accepted the connection')
        const accepted = performance.now()
        // Inside a turn of the event loop: after it, the timers come before any socket is read.
        await new Promise((resolve) => setImmediate(resolve))
        connection.socket.write(CREATE)
        const written = performance.now()
        // Until the headers timeout has passed and Node's check of it is due.
        stallUntil(
          () =>
            performance.now() > accepted + LIMITS.headersTimeoutMs + 1 &&
            performance.now() > written + LIMITS.connectionsCheckingIntervalMs + 1,
        )
        assert.equal(statuses(await connection.closed), [408])
        assert.is(await storedPets(api), seeded)
        assert.equal(requestLines(log.lines()).slice(0, 2), [
          [null, null, 408, 'RequestTimeout'],
          ['POST', '/v1/pets', null, 'ConnectionClosing'],
        ])
      } finally {
        await api.close()
      }
    },
  )
}

AnsweredConnections(
  'When the rest of an upload answered 408 arrives after the answer, then the request is not carried out, and logged once',
  async () => {
    const log = capturedLogger()
    const api = await startApi({ logger: log.logger, limits: LIMITS })
    try {
      const connection = rawConnection(api.baseUrl)
      connection.socket.write(`${CREATE_HEAD}${BODY.slice(0, 5)}`)
      await until(() => statuses(connection.received()).length > 0, 'the upload was answered')
      connection.socket.end(BODY.slice(5))
      assert.equal(statuses(await connection.closed), [408])
      await until(async () => (await api.openConnections()) === 0, 'the server closed the connection')
      assert.is(await storedPets(api), 0)
      assert.equal(requestLines(log.lines()).slice(0, 1), [['POST', '/v1/pets', 408, 'RequestTimeout']])
      assert.is(requestLines(log.lines()).length, 2, 'the 408 and the list')
    } finally {
      await api.close()
    }
  },
)

AnsweredConnections(
  'When a create follows, in the same write, a request whose answer closes the connection, then it is not carried out, and logged once',
  async () => {
    const log = capturedLogger()
    const api = await startApi({ logger: log.logger, maxBodyBytes: 100 })
    try {
      for (const [closing, first] of [
        ['GET /v1/pets HTTP/1.1\r\n\r\n', ['GET', '/v1/pets', 400, 'MissingHost']],
        ['GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: never\r\n\r\n', ['GET', '/v1/pets', 417, 'ExpectationFailed']],
        [`${CREATE_HEAD.replace(`${BODY.length}`, '200')}${' '.repeat(200)}`, ['POST', '/v1/pets', 413, 'PayloadTooLarge']],
      ] as const) {
        const before = log.lines().length
        const { text } = await rawExchange(api.baseUrl, `${closing}${CREATE}`)
        assert.equal(statuses(text), [first[2]], text)
        await until(() => log.lines().length > before + 1, 'both requests were logged')
        assert.equal(requestLines(log.lines().slice(before)), [[...first], ['POST', '/v1/pets', null, 'ConnectionClosing']])
      }
      assert.is(await storedPets(api), 0)
    } finally {
      await api.close()
    }
  },
)

AnsweredConnections.run()
