import { gzipSync } from 'node:zlib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { rawExchange } from '../support/raw-http.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

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

const BODY = '{"name":"Rex","categoryId":1}'

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
  await api.request('POST', '/v1/pets', { body: JSON.parse(BODY) as unknown })
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

Connections.run()
