import { request as httpRequest } from 'node:http'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import * as assert from 'uvu/assert'
import type { DataSets } from '../../src/store/data-sets.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { DEFAULT_SANDBOX_BUDGET, type SandboxBudget } from '../../src/store/sandbox-budget.js'
import type { JournalEntry } from '../../adapters/test-target/journal-entry.js'
import { gate, withSandboxPets } from '../support/sandbox-spaces.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { countOf, journalOf } from '../support/journal-reads.js'
import { rawExchange } from '../support/raw-http.js'
import { aNewPet } from '../support/pet-builder.js'
import { OTHER_KEY, type RunningApi, TEST_KEY } from '../support/start-api.js'
import { oneWindowCounter } from '../support/one-window-counter.js'
import { until } from '../support/until.js'

const Journal = apiSuite('The request journal: per-key sandboxes', () => ({
  sandboxes: memoryStore().dataSets,
}))

Journal('keeps what the client sent and what it was answered, newest first, never the key', async ({ api }) => {
  const created = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex' }), headers: { 'x-request-id': 'req-created-1' } })
  await api.request('GET', '/v1/pets/1?fields=all')
  const [get, create] = await journalOf(api)
  assert.equal([create?.sequence, create?.operation, get?.sequence, get?.operation], [1, 'createPet', 2, 'getPet'])
  assert.is(create?.id, 'req-created-1')
  assert.is(create?.method, 'POST')
  assert.is(create?.path, '/v1/pets')
  assert.is(create?.status, 201)
  assert.is(create?.fault, null)
  assert.ok(typeof create?.durationMs === 'number' && create.durationMs >= 0)
  assert.ok(!Number.isNaN(Date.parse(create?.time ?? '')) && (create?.time ?? '').endsWith('Z'))
  assert.is(create?.request.headers.authorization, 'Bearer [redacted]')
  assert.is(create?.request.headers['content-type'], 'application/json')
  assert.equal(JSON.parse(create?.request.body ?? 'null'), aNewPet({ name: 'Rex' }))
  assert.is(create?.response?.body, created.text)
  assert.is(create?.response?.headers.location, '/v1/pets/1')
  assert.is(get?.path, '/v1/pets/1?fields=all')
  assert.is(get?.request.body, null)
  assert.not.match(JSON.stringify(await journalOf(api)), TEST_KEY)
})

Journal('shows every header line as it came: names in lower case, a repeated one’s values joined in order', async ({ api }) => {
  // Node's `headers` keeps only the first User-Agent; the journal shows what the client sent.
  const { host } = new URL(api.baseUrl)
  await rawExchange(
    api.baseUrl,
    `GET /v1/pets/1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\nX-Trace: one\r\n` +
      `User-Agent: first\r\nx-trace: two\r\nUser-Agent: second\r\nConnection: close\r\n\r\n`,
  )
  const [entry] = await journalOf(api)
  assert.equal(entry?.request.headers, {
    host,
    'x-trace': 'one, two',
    'user-agent': 'first, second',
    connection: 'close',
    authorization: 'Bearer [redacted]',
  })
})

Journal('records the fault applied; a connection a fault reset is state reset, without status or answer', async ({ api }) => {
  await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=503' } })
  await new Promise<void>((resolve) => {
    const request = httpRequest(`${api.baseUrl}/v1/pets`, { headers: { authorization: `Bearer ${TEST_KEY}`, prefer: 'fault=reset' } })
    request.on('error', () => resolve())
    request.on('response', () => resolve())
    request.end()
  })
  // The reset request is recorded as its connection closes, which the service sees (in the turn of
  // the reset) before the client reads the reset, and so before the journal is asked for.
  const [reset, unavailable] = await journalOf(api)
  assert.equal(
    [reset?.state, reset?.status, reset?.fault, reset?.response],
    ['reset', null, 'reset', { headers: {}, headersTruncated: false, body: null, bodyTruncated: false }],
  )
  assert.equal([unavailable?.state, unavailable?.status, unavailable?.fault], ['answered', 503, '503'])
})

Journal(
  'keeps a truncated answer as it was sent, state reset: the bytes of its body sent; without a body, the headers sent whole',
  async ({ api }) => {
    const request = (method: string, headers = ''): string =>
      `${method} /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nPrefer: fault=truncated\r\n${headers}\r\n`
    const body = JSON.stringify(aNewPet({ name: 'Rex' }))
    const created = await rawExchange(
      api.baseUrl,
      request('POST', `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`) + body,
    )
    const head = await rawExchange(api.baseUrl, request('HEAD'))
    const [headEntry, createEntry] = await journalOf(api)
    // A fault broke the connection before the whole answer went: reset, with the status it began with.
    assert.equal([createEntry?.state, headEntry?.state], ['reset', 'reset'])
    assert.is(createEntry?.status, 201)
    assert.is(createEntry?.response?.body, created.text.split('\r\n\r\n')[1])
    assert.is(headEntry?.status, 200)
    assert.is(headEntry?.response?.body, null)
    const headersSent = head.text
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.slice(0, line.indexOf(':')))
    assert.equal(Object.keys(headEntry?.response?.headers ?? {}), headersSent)
  },
)

Journal('keeps no answer body for a HEAD, as none was sent', async ({ api }) => {
  assert.is((await api.request('HEAD', '/v1/pets')).text, '')
  const [entry] = await journalOf(api)
  assert.equal([entry?.method, entry?.status, entry?.response?.body], ['HEAD', 200, null])
})

Journal('shows every configured API key as [redacted], wherever it appears in an entry', async ({ api }) => {
  const percentEncoded = [...OTHER_KEY].map((character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`).join('')
  await api.request('POST', `/v1/pets?api_key=${TEST_KEY}&other=${percentEncoded}&mixed=%74${TEST_KEY.slice(1)}`, {
    body: aNewPet({ name: OTHER_KEY }),
    headers: {
      'proxy-authorization': `Bearer ${OTHER_KEY}`,
      cookie: `session=${TEST_KEY}; theme=dark`,
      'x-api-key': OTHER_KEY,
      prefer: `handling=lenient, token=${TEST_KEY}`,
      'idempotency-key': TEST_KEY,
      'x-request-id': OTHER_KEY,
    },
  })
  const text = (await api.request('GET', '/v1/sandbox/requests')).text
  for (const key of [TEST_KEY, OTHER_KEY]) assert.not.match(text, key.slice(1))
  assert.not.match(text, percentEncoded.slice(3))
  const [entry] = JSON.parse(text) as ReadonlyArray<JournalEntry>
  // A key sent as X-Request-Id is never the request's id: the service gave it a new one.
  assert.match(entry?.id ?? '', /^[0-9a-f-]{36}$/)
  assert.is(entry?.path, '/v1/pets?api_key=[redacted]&other=[redacted]&mixed=[redacted]')
  assert.equal(
    {
      authorization: entry?.request.headers.authorization,
      'proxy-authorization': entry?.request.headers['proxy-authorization'],
      cookie: entry?.request.headers.cookie,
      'x-api-key': entry?.request.headers['x-api-key'],
      prefer: entry?.request.headers.prefer,
      'idempotency-key': entry?.request.headers['idempotency-key'],
      'x-request-id': entry?.request.headers['x-request-id'],
    },
    {
      authorization: 'Bearer [redacted]',
      'proxy-authorization': 'Bearer [redacted]',
      cookie: 'session=[redacted]; theme=dark',
      'x-api-key': '[redacted]',
      prefer: 'handling=lenient, token=[redacted]',
      'idempotency-key': '[redacted]',
      'x-request-id': '[redacted]',
    },
  )
  assert.equal(JSON.parse(entry?.request.body ?? 'null'), aNewPet({ name: '[redacted]' }))
  assert.is(entry?.response?.headers['x-request-id'], entry?.id)
  assert.match(entry?.response?.body ?? '', '"name":"[redacted]"')
})

Journal('/v1/sandbox/ requests are not kept; limit is 1 to 1000, 20 by default', async ({ api }) => {
  for (let index = 0; index < 25; index += 1) await api.request('GET', `/v1/pets?limit=${index + 1}`)
  await api.request('GET', '/v1/sandbox/faults')
  assert.is((await journalOf(api)).length, 20)
  assert.is((await journalOf(api, '?limit=1000')).length, 25)
  assert.is((await journalOf(api, '?limit=1'))[0]?.path, '/v1/pets?limit=25')
  for (const query of ['?limit=0', '?limit=1001', '?limit=abc', '?limit=1&limit=2', '?offset=1']) {
    assertError(await api.request('GET', `/v1/sandbox/requests${query}`), 400, 'invalid_parameter')
  }
})

Journal('two keys never see each other’s journal; DELETE and a reset clear one', async ({ api }) => {
  await api.request('GET', '/v1/pets')
  assert.equal(await journalOf(api, '', OTHER_KEY), [])
  await api.request('GET', '/v1/pets', { key: OTHER_KEY })
  assert.is((await api.request('DELETE', '/v1/sandbox/requests')).status, 204)
  assert.equal(await journalOf(api), [])
  assert.is((await journalOf(api, '', OTHER_KEY)).length, 1)
  await api.request('GET', '/v1/pets', { key: OTHER_KEY })
  assert.is((await api.request('POST', '/v1/sandbox/reset', { key: OTHER_KEY })).status, 204)
  assert.equal(await journalOf(api, '', OTHER_KEY), [])
})

Journal('a body is kept as text, at most 4 KiB of it, marked bodyTruncated when cut', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet({ note: 'x'.repeat(10_000) }) })
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const [whole, cut] = await journalOf(api)
  assert.is(Buffer.byteLength(cut?.request.body ?? ''), 4096)
  assert.equal([cut?.request.bodyTruncated, cut?.response?.bodyTruncated], [true, false])
  assert.equal(JSON.parse(whole?.request.body ?? 'null'), aNewPet())
  assert.is(whole?.request.bodyTruncated, false)
})

Journal.run()

/** Sandboxes whose listing fails with an exception, as a bug would: the edge answers 500. */
const buggySandboxes = (): DataSets => {
  const space = memoryStore().dataSets
  if (space === undefined) throw new Error('the memory store has sandboxes')
  return withSandboxPets(space, (pets) => ({ ...pets, list: () => () => Promise.reject(new Error('a bug')) }))
}

const Failing = apiSuite('The request journal when the service fails unexpectedly', () => ({ sandboxes: buggySandboxes() }))

Failing('an unexpected failure is kept as the 500 that was sent', async ({ api }) => {
  assertError(await api.request('GET', '/v1/pets'), 500, 'internal_error')
  const [entry] = await journalOf(api)
  assert.is(entry?.status, 500)
  assert.match(entry?.response?.body ?? '', '"code":"internal_error"')
})

Failing.run()

/** Sandboxes whose listings wait at a gate the test opens: a list request is held in flight while others pass. */
const gatedLists = () => {
  const space = memoryStore().dataSets
  if (space === undefined) throw new Error('the memory store has sandboxes')
  const listing = gate()
  const sandboxes = withSandboxPets(space, (pets) => ({
    ...pets,
    list: (query) =>
      pipe(
        TE.fromTask(listing.pass),
        TE.flatMap(() => pets.list(query)),
      ),
  }))
  return { sandboxes, atGate: listing.atGate, open: listing.open }
}

let gated = gatedLists()
const InFlight = apiSuite('The request journal while a request is in flight', () => {
  gated = gatedLists()
  return { sandboxes: gated.sandboxes }
})

InFlight('a request is listed from its arrival as pending, without status, duration or answer, until it is answered', async ({ api }) => {
  const slow = api.request('GET', '/v1/pets?limit=3', { headers: { 'x-trace': 'held' } })
  slow.catch(() => undefined)
  await gated.atGate
  const [pending] = await journalOf(api)
  assert.equal(
    [pending?.sequence, pending?.state, pending?.operation, pending?.path, pending?.status, pending?.durationMs, pending?.response],
    [1, 'pending', 'listPets', '/v1/pets?limit=3', null, null, null],
  )
  assert.equal(
    [pending?.request.headers.authorization, pending?.request.headers['x-trace'], pending?.request.body],
    ['Bearer [redacted]', 'held', null],
  )
  gated.open()
  const answered = await slow
  assert.is(answered.status, 200)
  const [entry] = await journalOf(api)
  assert.equal([entry?.sequence, entry?.state, entry?.status, entry?.response?.body], [1, 'answered', 200, answered.text])
  assert.ok(typeof entry?.durationMs === 'number')
})

InFlight(
  'numbers requests in the order they arrived, and lists them newest first by arrival, not by when their answer ended',
  async ({ api }) => {
    const slow = api.request('GET', '/v1/pets')
    slow.catch(() => undefined)
    await gated.atGate
    assertError(await api.request('GET', '/v1/pets/7'), 404, 'not_found')
    const listed = async (): Promise<ReadonlyArray<readonly [number, string, string]>> =>
      (await journalOf(api)).map((entry) => [entry.sequence, entry.path, entry.state])
    assert.equal(await listed(), [
      [2, '/v1/pets/7', 'answered'],
      [1, '/v1/pets', 'pending'],
    ])
    gated.open()
    assert.is((await slow).status, 200)
    assert.equal(await listed(), [
      [2, '/v1/pets/7', 'answered'],
      [1, '/v1/pets', 'answered'],
    ])
  },
)

InFlight('a request whose client gave up before its answer is state abandoned, without status or answer', async ({ api }) => {
  const request = httpRequest(`${api.baseUrl}/v1/pets`, { headers: { authorization: `Bearer ${TEST_KEY}` } })
  request.on('error', () => undefined)
  request.end()
  await gated.atGate
  assert.equal(
    (await journalOf(api)).map((entry) => entry.state),
    ['pending'],
  )
  request.destroy()
  // The service learns of it when the connection's close reaches it: the journal is asked until then.
  await until(async () => (await journalOf(api))[0]?.state !== 'pending', 'the abandoned request settled')
  const abandoned = async (): Promise<ReadonlyArray<unknown>> => {
    const entry = (await journalOf(api)).find(({ sequence }) => sequence === 1)
    return [entry?.state, entry?.status, entry?.fault, entry?.response]
  }
  const expected = ['abandoned', null, null, { headers: {}, headersTruncated: false, body: null, bodyTruncated: false }]
  assert.equal(await abandoned(), expected)
  // The list carried on, and found no one to answer: the entry stays as it was.
  gated.open()
  assert.is((await api.request('GET', '/v1/pets/7')).status, 404)
  assert.equal(await abandoned(), expected)
  assert.is(await countOf(api, '?state=abandoned'), 1)
})

InFlight('a cleared journal numbers from 1 again, without the requests that arrived before the clear', async ({ api }) => {
  await api.request('GET', '/v1/pets/7')
  const slow = api.request('GET', '/v1/pets')
  slow.catch(() => undefined)
  await gated.atGate
  assert.is((await api.request('DELETE', '/v1/sandbox/requests')).status, 204)
  gated.open()
  assert.is((await slow).status, 200)
  await api.request('GET', '/v1/pets/8')
  assert.equal(
    (await journalOf(api)).map((entry) => [entry.sequence, entry.path]),
    [[1, '/v1/pets/8']],
  )
  assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
  await api.request('GET', '/v1/pets/9')
  assert.equal(
    (await journalOf(api)).map((entry) => [entry.sequence, entry.path]),
    [[1, '/v1/pets/9']],
  )
})

InFlight.run()

/** Every entry that matches `query`, newest first, each page's `Link` followed. */
const everyEntryOf = async (api: RunningApi, query: string): Promise<ReadonlyArray<JournalEntry>> => {
  const entries: JournalEntry[] = []
  for (let path: string | undefined = `/v1/sandbox/requests${query}`; path !== undefined;) {
    const response = await api.request('GET', path)
    assert.is(response.status, 200, response.text)
    entries.push(...(response.body as ReadonlyArray<JournalEntry>))
    path = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1]
  }
  return entries
}

const countAnswerOf = async (api: RunningApi, query = ''): Promise<unknown> =>
  (await api.request('GET', `/v1/sandbox/requests/count${query}`)).body

const Roomy = apiSuite('The request journal with a budget that holds every entry', () => ({
  sandboxes: memoryStore().dataSets,
  budget: { ...DEFAULT_SANDBOX_BUDGET, journalBytes: 64 * 1024 * 1024 },
}))

Roomy('keeps the last 1000 requests: the oldest leave first, and a count that reaches past them is not complete', async ({ api }) => {
  for (let index = 0; index < 1005; index += 1) await api.request('HEAD', '/v1/pets')
  const kept = await everyEntryOf(api, '?limit=1000')
  assert.is(kept.length, 1000)
  assert.equal([kept[0]?.sequence, kept.at(-1)?.sequence], [1005, 6])
  assert.equal(await countAnswerOf(api), { count: 1000, complete: false })
  assert.equal(await countAnswerOf(api, '?since=4'), { count: 1000, complete: false })
  // Every request after the 5th is kept: counted since then, nothing is missing.
  assert.equal(await countAnswerOf(api, '?since=5'), { count: 1000, complete: true })
  assert.equal(await countAnswerOf(api, '?since=1000'), { count: 5, complete: true })
  // A clear starts again: complete until a request is let go.
  assert.is((await api.request('DELETE', '/v1/sandbox/requests')).status, 204)
  await api.request('HEAD', '/v1/pets')
  assert.equal(await countAnswerOf(api), { count: 1, complete: true })
})

Roomy.run()

/** A journal's part that holds a few entries of a list. */
const FEW: SandboxBudget = { ...DEFAULT_SANDBOX_BUDGET, journalBytes: 16 * 1024 }

const Small = apiSuite('The request journal with a budget of a few entries', () => ({ sandboxes: memoryStore().dataSets, budget: FEW }))

Small('a count is complete while every request since the journal began is kept, and not once its budget let one go', async ({ api }) => {
  await api.request('GET', '/v1/pets')
  assert.equal(await countAnswerOf(api, '?operation=listPets'), { count: 1, complete: true })
  for (let index = 0; index < 20; index += 1) await api.request('GET', '/v1/pets')
  const kept = await everyEntryOf(api, '?limit=1000')
  const oldest = kept.at(-1)?.sequence ?? 0
  assert.ok(kept.length > 1 && oldest > 1, `${kept.length} kept, the oldest ${oldest}`)
  assert.equal(await countAnswerOf(api, '?operation=listPets'), { count: kept.length, complete: false })
  assert.equal(await countAnswerOf(api, `?operation=listPets&since=${oldest - 1}`), { count: kept.length, complete: true })
  assert.equal(await countAnswerOf(api, `?since=${oldest - 2}`), { count: kept.length, complete: false })
})

Small.run()

const Limited = apiSuite('The request journal with a rate limit of 2 a minute', () => ({
  sandboxes: memoryStore().dataSets,
  rateLimit: { limit: 2, counter: oneWindowCounter() },
}))

Limited('reading the journal spends none of the key’s quota: an open inspector polls it (it has a quota of its own)', async ({ api }) => {
  for (let index = 0; index < 5; index += 1) await journalOf(api)
  assert.equal([(await api.request('GET', '/v1/pets')).status, (await api.request('GET', '/v1/pets')).status], [200, 200])
  assertError(await api.request('GET', '/v1/pets'), 429, 'rate_limited')
  assert.is((await journalOf(api)).length, 3)
})

Limited(
  'journal reads and counts, the report and the clock share a quota of their own, 600 a minute: a loop of reads is refused 429',
  async ({ api }) => {
    const reads = ['/v1/sandbox/requests', '/v1/sandbox/requests/count', '/v1/sandbox/report', '/v1/sandbox/clock']
    for (let index = 0; index < 600; index += 1) {
      const read = await api.request('GET', reads[index % reads.length] ?? '')
      assert.is(read.status, 200, read.text)
      assert.is(read.headers.get('ratelimit-policy'), '"sandbox";q=600;w=60')
      assert.is(read.headers.get('ratelimit'), `"sandbox";r=${599 - index};t=30`)
    }
    for (const path of [...reads, '/v1/sandbox/requests?limit=1']) {
      const refused = await api.request('GET', path)
      assertError(refused, 429, 'rate_limited')
      assert.equal(
        ['ratelimit-policy', 'ratelimit', 'retry-after'].map((name) => refused.headers.get(name)),
        ['"sandbox";q=600;w=60', '"sandbox";r=0;t=30', '30'],
      )
    }
    assertError(await api.request('POST', '/v1/sandbox/clock', { body: { advance: 60_000 } }), 429, 'rate_limited')
    // The key's own quota is untouched: its two requests, then its 429.
    const pets = await api.request('GET', '/v1/pets')
    assert.equal([pets.status, pets.headers.get('ratelimit')], [200, '"default";r=1;t=30'])
    assert.is((await api.request('GET', '/v1/pets')).status, 200)
    assertError(await api.request('GET', '/v1/pets'), 429, 'rate_limited')
  },
)

Limited.run()

const Off = apiSuite('Without sandboxes')

Off('the journal routes and the inspector page answer 404 like any unknown path', async ({ api }) => {
  assertError(await api.request('GET', '/v1/sandbox/requests'), 404, 'route_not_found')
  assertError(await api.request('DELETE', '/v1/sandbox/requests'), 404, 'route_not_found')
  assertError(await api.request('GET', '/sandbox', { key: false }), 404, 'route_not_found')
})

Off.run()
