import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { madeKeys } from '../../adapters/test-target/made-keys.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import type { MadeKeys } from '../../adapters/test-target/made-keys.js'
import { type CapturedLogger, capturedLogger } from '../support/captured-logger.js'
import { aNewPet } from '../support/pet-builder.js'
import { rawConnection, rawExchange } from '../support/raw-http.js'
import { SEED } from '../support/sandbox-spaces.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'
import { until } from '../support/until.js'

interface Context {
  api: RunningApi
  log: CapturedLogger
  made: MadeKeys
}

/**
 * Node hands a request over as soon as its head is parsed, its body still to come. An operation that
 * reads no body would run then, and a body whose framing breaks afterwards gets its client a 400
 * about a request carried out: a request's operation runs once its body has arrived whole.
 */
const WholeBodies = suite<Context>("A request's operation is carried out only once its body has arrived whole", {} as Context)

const MAX_BODY_BYTES = 1000

WholeBodies.before.each(async (context) => {
  context.log = capturedLogger()
  context.made = madeKeys()
  context.api = await startApi({
    logger: context.log.logger,
    sandboxes: memoryStore(SEED).dataSets,
    madeKeys: context.made,
    maxBodyBytes: MAX_BODY_BYTES,
  })
})
WholeBodies.after.each(async (context) => {
  await context.api.close()
})

/** The statuses of every answer in what the server sent, in order. */
const statuses = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((match) => Number(match[1]))

/** A request with a chunked body: its head and `body` as sent, in one write. */
const chunked = (method: string, path: string, key: string, body: string): string =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
  `Transfer-Encoding: chunked\r\n\r\n${body}`

/** Not a chunk size: the body's framing breaks right after the head. */
const BAD_FRAMING = 'zz\r\n'

const makeSandbox = async (api: RunningApi): Promise<string> => {
  const response = await api.request('POST', '/v1/sandboxes')
  assert.is(response.status, 201, response.text)
  return (response.body as { key: string }).key
}

const petCount = async (api: RunningApi, key: string): Promise<number> => {
  const response = await api.request('GET', '/v1/pets?limit=100', { key })
  assert.is(response.status, 200, response.text)
  return (response.body as unknown[]).length
}

/** The method, path, status and failure of each request line logged since `before` lines. */
const requestLinesSince = (log: CapturedLogger, before: number): unknown[][] =>
  log
    .lines()
    .slice(before)
    .filter((line) => line.msg === 'request')
    .map((line) => [line.method, line.path, line.status, line.failure])

/** Sends `bytes` in one write; the server's answers, once it closed, and its request lines once the connection is gone. */
const exchange = async ({ api, log }: Context, bytes: string): Promise<{ statuses: number[]; lines: unknown[][] }> => {
  const [before, open] = [log.lines().length, await api.openConnections()]
  const { text } = await rawExchange(api.baseUrl, bytes)
  // Once the server has let the connection go, the app is done with its requests.
  await until(async () => (await api.openConnections()) <= open, 'the server closed the connection')
  return { statuses: statuses(text), lines: requestLinesSince(log, before) }
}

WholeBodies(
  'When a body’s framing breaks in the write of its head, then 400, and a test-target operation is not carried out',
  async (context) => {
    const { api, made } = context
    const key = await makeSandbox(api)
    await api.request('POST', '/v1/pets', { key, body: aNewPet() })
    const sandboxes = made.size()
    for (const [method, path, by] of [
      ['DELETE', '/v1/sandbox', key],
      ['POST', '/v1/sandbox/reset', key],
      ['POST', '/v1/sandboxes', TEST_KEY],
    ] as const) {
      const { statuses: answered, lines } = await exchange(context, chunked(method, path, by, BAD_FRAMING))
      assert.equal(answered, [400], `${method} ${path}`)
      assert.equal(lines, [[method, path, 400, 'MalformedRequest']])
    }
    // The sandbox is still there, not reset, and no other was made.
    assert.is(await petCount(api, key), SEED.length + 1)
    assert.is(made.size(), sandboxes)
  },
)

WholeBodies('When a body’s framing breaks in the write of its head, then 400, and a pet operation is not carried out', async () => {
  const pets = memoryPetRepository()
  const carriedOut: string[] = []
  // A store call's task does its work when run: counted then.
  const counting: PetRepository = {
    ...pets,
    list: (query) => () => (carriedOut.push('list'), pets.list(query)()),
    insert: (draft, createId) => () => (carriedOut.push('insert'), pets.insert(draft, createId)()),
  }
  const context = { log: capturedLogger(), made: madeKeys() }
  const api = await startApi({ logger: context.log.logger, pets: counting })
  try {
    for (const [method, body] of [
      ['GET', BAD_FRAMING],
      ['POST', `5\r\n{"nam\r\n${BAD_FRAMING}`],
    ] as const) {
      const { statuses: answered, lines } = await exchange({ ...context, api }, chunked(method, '/v1/pets', TEST_KEY, body))
      assert.equal(answered, [400], method)
      assert.equal(lines, [[method, '/v1/pets', 400, 'MalformedRequest']])
    }
    assert.equal(carriedOut, [])
  } finally {
    await api.close()
  }
})

WholeBodies(
  'When an operation that reads no body gets one over the size limit, then 413 payload_too_large, and it is not carried out',
  async (context) => {
    const { api } = context
    const key = await makeSandbox(api)
    const chunk = 'x'.repeat(MAX_BODY_BYTES / 2)
    const overLimit = `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(3)
    const announced = `DELETE /v1/sandbox HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`
    for (const bytes of [chunked('DELETE', '/v1/sandbox', key, overLimit), announced]) {
      const { statuses: answered, lines } = await exchange(context, bytes)
      assert.equal(answered, [413])
      assert.equal(lines, [['DELETE', '/v1/sandbox', 413, 'PayloadTooLarge']])
    }
    assert.is(await petCount(api, key), SEED.length)
  },
)

WholeBodies('When the body of an operation that reads none arrives whole, later, then the operation is carried out', async ({ api }) => {
  const key = await makeSandbox(api)
  const connection = rawConnection(api.baseUrl)
  connection.socket.write(chunked('DELETE', '/v1/sandbox', key, '2\r\n{}\r\n'))
  connection.socket.end('0\r\n\r\n')
  assert.equal(statuses(await connection.closed), [204])
  assert.is((await api.request('GET', '/v1/pets', { key })).status, 401)
})

WholeBodies.run()
