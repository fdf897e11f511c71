import { gzipSync } from 'node:zlib'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { JournalEntry, JournalMessage } from '../../adapters/test-target/journal-entry.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { countOf } from '../support/journal-reads.js'
import { aNewPet } from '../support/pet-builder.js'
import { rawConnection, rawExchange } from '../support/raw-http.js'
import { OTHER_KEY, type RunningApi, TEST_KEY } from '../support/start-api.js'
import { until } from '../support/until.js'

/**
 * The journal's entries once `count` of them have ended. An entry is `pending` until its answer is
 * sent and its body has arrived, which for a body read after its answer can be a moment after the
 * client has its answer: the journal is asked again until then.
 */
const entriesOnce = async (api: RunningApi, count: number): Promise<ReadonlyArray<JournalEntry>> => {
  for (;;) {
    const response = await api.request('GET', '/v1/sandbox/requests?limit=100')
    const entries = response.body as ReadonlyArray<JournalEntry>
    if (entries.filter((entry) => entry.state !== 'pending').length >= count) return entries
    await new Promise((resolve) => setImmediate(resolve))
  }
}

const requestOf = async (api: RunningApi): Promise<JournalMessage> => {
  const [entry] = await entriesOnce(api, 1)
  assert.ok(entry !== undefined)
  return entry.request
}

const Bodies = apiSuite('The bodies the request journal keeps', () => ({
  sandboxes: memoryStore().dataSets,
}))

Bodies('a body refused before it was read is kept as it was sent: a 415, a 405, a forced failure', async ({ api }) => {
  const sent = JSON.stringify(aNewPet())
  assertError(
    await api.request('POST', '/v1/pets', { body: sent, headers: { 'content-type': 'text/plain' } }),
    415,
    'unsupported_media_type',
  )
  assertError(await api.request('PUT', '/v1/pets', { body: aNewPet({ name: 'Put' }) }), 405, 'method_not_allowed')
  const forced = { body: aNewPet({ name: 'Forced' }), headers: { prefer: 'fault=503' } }
  assertError(await api.request('POST', '/v1/pets', forced), 503, 'service_unavailable')
  const [failed, put, unsupported] = await entriesOnce(api, 3)
  assert.equal(
    [unsupported?.request.body, put?.request.body, failed?.request.body],
    [sent, JSON.stringify(aNewPet({ name: 'Put' })), JSON.stringify(aNewPet({ name: 'Forced' }))],
  )
  assert.equal([unsupported?.request.bodyTruncated, put?.request.bodyTruncated, failed?.request.bodyTruncated], [false, false, false])
})

Bodies('a body that is not JSON, or not UTF-8, is kept as its bytes, each byte that is no UTF-8 written \\xHH', async ({ api }) => {
  const json = { 'content-type': 'application/json' }
  assertError(await api.request('POST', '/v1/pets', { body: '{"name": Rex}', headers: json }), 400, 'invalid_json')
  const bytes = Buffer.concat([Buffer.from('{"name":"R'), Buffer.from([0xff, 0xc3]), Buffer.from('x é","categoryId":1}')])
  assertError(await api.request('POST', '/v1/pets', { body: bytes, headers: json }), 400, 'invalid_json')
  const [utf8, notJson] = await entriesOnce(api, 2)
  assert.equal([notJson?.request.body, notJson?.request.bodyTruncated], ['{"name": Rex}', false])
  assert.equal([utf8?.request.body, utf8?.request.bodyTruncated], ['{"name":"R\\xFF\\xC3x é","categoryId":1}', false])
})

Bodies('a refused body is cut at 4 KiB, marked bodyTruncated, and no key the cut goes through shows in part', async ({ api }) => {
  const head = `{"key":"${OTHER_KEY}","note":"`
  const sent = `${head}${'-'.repeat(4096 - head.length - 5)}${TEST_KEY}"}`
  assertError(
    await api.request('POST', '/v1/pets', { body: sent, headers: { 'content-type': 'text/plain' } }),
    415,
    'unsupported_media_type',
  )
  const request = await requestOf(api)
  assert.is(request.bodyTruncated, true)
  // The whole key before the cut is redacted, the one the cut goes through is left out, with the run of key characters it ends.
  assert.is(request.body, '{"key":"[redacted]","note":"')
  assert.not.match(request.body ?? '', TEST_KEY.slice(0, 5))
})

Bodies('a body the service read whole is kept as it decoded it, a compressed one decompressed', async ({ api }) => {
  const sent = JSON.stringify(aNewPet({ name: 'Gzipped' }))
  const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip' }
  assert.is((await api.request('POST', '/v1/pets', { body: gzipSync(sent), headers })).status, 201)
  const request = await requestOf(api)
  assert.equal([request.body, request.bodyTruncated], [sent, false])
})

Bodies('a request answered before its body was read is answered once, and its connection carries the next request', async ({ api }) => {
  const body = JSON.stringify(aNewPet())
  const exchange = await rawExchange(
    api.baseUrl,
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
      `GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`,
  )
  assert.equal(exchange.text.match(/HTTP\/1\.1 \d{3}/g), ['HTTP/1.1 415', 'HTTP/1.1 404'])
  assert.not.match(exchange.text, /connection: close[\s\S]*HTTP\/1\.1 404/i)
  const [get, post] = await entriesOnce(api, 2)
  assert.equal([post?.status, post?.request.body, get?.status], [415, body, 404])
})

Bodies('a body refused for its size keeps at most its first 4 KiB, and is answered and closed as without the journal', async ({ api }) => {
  const sent = `{"name":"${'y'.repeat(2 * 1024 * 1024)}"}`
  const response = await api.request('POST', '/v1/pets', { body: sent, headers: { 'content-type': 'application/json' } })
  assertError(response, 413, 'payload_too_large')
  assert.is(response.headers.get('connection'), 'close')
  const request = await requestOf(api)
  assert.is(request.bodyTruncated, true)
  // What had arrived when the answer closed the connection, often nothing: never past the bound.
  assert.ok(request.body === null || (sent.startsWith(request.body) && Buffer.byteLength(request.body) <= 4096), request.body ?? '')
})

Bodies('a body over the limit that was read in part keeps its first 4 KiB', async ({ api }) => {
  const chunk = 'z'.repeat(64 * 1024)
  const chunks = Array.from({ length: 20 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('')
  const exchange = await rawExchange(
    api.baseUrl,
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
      `e\r\n{"name":"Rex",\r\n${chunks}0\r\n\r\n`,
  )
  assert.match(exchange.text, /^HTTP\/1\.1 413/)
  const request = await requestOf(api)
  assert.is(request.bodyTruncated, true)
  // Cut within a run of key characters (`z`): the run is left out.
  assert.is(request.body, '{"name":"Rex",')
})

Bodies('a body whose client gave up partway keeps at most what had arrived, cut, and its request is abandoned', async ({ api }) => {
  const part = '{"name":"Rex","status":"sold",'
  for (const [at, gives] of (['half-closes', 'resets'] as const).entries()) {
    const { socket } = rawConnection(api.baseUrl)
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${part.length + 100}\r\n\r\n${part}`,
    )
    // Once the journal holds the request (its body still arriving), the client gives up.
    await until(async () => (await countOf(api)) === at + 1, 'the request was kept')
    if (gives === 'half-closes') socket.end()
    else socket.resetAndDestroy()
    const entries = await entriesOnce(api, at + 1)
    const entry = entries.find(({ sequence }) => sequence === at + 1)
    assert.equal([entry?.state, entry?.status, entry?.request.bodyTruncated], ['abandoned', null, true], gives)
    // What had arrived when the body parser began to read it, if it had: never more than was sent.
    assert.ok(entry?.request.body === null || entry?.request.body === part, `${gives}: ${entry?.request.body ?? ''}`)
  }
})

Bodies('a body sent whole by a client that gave up before it was read is kept whole', async ({ api }) => {
  const sent = JSON.stringify(aNewPet())
  const { socket } = rawConnection(api.baseUrl)
  // Delayed before its body is read: the client sends it all, then gives up while it waits.
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
      `Prefer: delay=1000\r\nContent-Length: ${Buffer.byteLength(sent)}\r\n\r\n${sent}`,
  )
  await until(async () => (await countOf(api)) === 1, 'the request was kept')
  socket.end()
  const [entry] = await entriesOnce(api, 1)
  // Abandoned when the client's end came first, as it nearly always does; its body, either way, as sent.
  assert.equal([entry?.request.body, entry?.request.bodyTruncated], [sent, false])
  socket.destroy()
})

Bodies.run()
