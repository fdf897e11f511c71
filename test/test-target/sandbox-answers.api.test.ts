import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { MAX_DELAY_MS } from '../../adapters/test-target/fault-rule.js'
import type { SandboxReport } from '../../adapters/test-target/sandbox-report.js'
import { DEFAULT_SANDBOX_BUDGET } from '../../src/store/sandbox-budget.js'
import type { DataSets } from '../../src/store/data-sets.js'
import type { StorePorts } from '../../src/store/store-ports.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { capturedLogger } from '../support/captured-logger.js'
import { aNewPet } from '../support/pet-builder.js'
import { SEED } from '../support/sandbox-spaces.js'
import { type RequestOptions, type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

const setScript = (api: RunningApi, rules: unknown, key: string = TEST_KEY) =>
  api.request('PUT', '/v1/sandbox/faults', { body: rules, key })

/** A request whose answer the script gives: checked by the test against the rule, not against the operation's responses. */
const scripted = (api: RunningApi, method: string, path: string, options: RequestOptions = {}) =>
  api.request(method, path, { ...options, scripted: true })

const petCount = async (api: RunningApi): Promise<number> =>
  ((await api.request('GET', '/v1/pets?limit=100')).body as ReadonlyArray<unknown>).length

const reportOf = async (api: RunningApi): Promise<SandboxReport> => (await api.request('GET', '/v1/sandbox/report')).body as SandboxReport

const Answers = apiSuite('Scripted answers of a fault script: PETSTORE_TEST_TARGET=on', () => ({
  sandboxes: memoryStore(SEED).dataSets,
}))

Answers('An answer sends its status, its headers as given (an array as repeated lines) and its body as JSON', async ({ api }) => {
  await setScript(api, [
    {
      operation: 'getPet',
      answer: { status: 200, headers: { 'X-Served-By': 'edge-cache', 'Set-Cookie': ['a=1', 'b=2'] }, body: { id: 1, extra: [true, null] } },
      times: 1,
    },
  ])
  const answered = await scripted(api, 'GET', '/v1/pets/1')
  assert.is(answered.status, 200)
  assert.equal(answered.body, { id: 1, extra: [true, null] })
  assert.is(answered.headers.get('content-type'), 'application/json; charset=utf-8')
  assert.is(answered.headers.get('x-served-by'), 'edge-cache')
  assert.equal(answered.headers.getSetCookie(), ['a=1', 'b=2'])
  // The headers every answer carries stay; what the operation would have added (its ETag) is not there.
  assert.ok(answered.headers.get('x-request-id'))
  assert.is(answered.headers.get('etag'), null)
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
})

Answers('A body of any JSON value is sent as JSON: null, a number, a string', async ({ api }) => {
  await setScript(
    api,
    [null, 42, 'text'].map((body) => ({ operation: 'listPets', answer: { status: 200, body }, times: 1 })),
  )
  for (const text of ['null', '42', '"text"']) {
    const answered = await scripted(api, 'GET', '/v1/pets')
    assert.is(answered.text, text)
    assert.is(answered.headers.get('content-type'), 'application/json; charset=utf-8')
  }
})

Answers('A 503 answer carries the Retry-After the service sends with a 503, unless a null removes it', async ({ api }) => {
  await setScript(api, [
    { operation: 'createPet', answer: { status: 503 }, times: 1 },
    { operation: 'createPet', answer: { status: 503, headers: { 'Retry-After': null } }, times: 1 },
  ])
  const withIt = await scripted(api, 'POST', '/v1/pets', { body: aNewPet() })
  assert.is(withIt.status, 503)
  assert.is(withIt.headers.get('retry-after'), '5')
  const without = await scripted(api, 'POST', '/v1/pets', { body: aNewPet() })
  assert.is(without.status, 503)
  assert.is(without.headers.get('retry-after'), null)
  assert.is(await petCount(api), 5)
})

Answers('A Retry-After as an HTTP-date is sent as given', async ({ api }) => {
  const date = 'Wed, 01 Jan 2031 00:00:00 GMT'
  await setScript(api, [{ operation: 'listPets', answer: { status: 429, headers: { 'retry-after': date } }, times: 1 }])
  const limited = await scripted(api, 'GET', '/v1/pets')
  assert.is(limited.status, 429)
  assert.is(limited.headers.get('retry-after'), date)
})

Answers('A text answer is sent as is, with the Content-Type its headers give: a gateway’s HTML 502', async ({ api }) => {
  const html = '<html><body><h1>502 Bad Gateway</h1></body></html>\n'
  await setScript(api, [{ operation: 'listPets', answer: { status: 502, headers: { 'content-type': 'text/html' }, text: html }, times: 1 }])
  const gateway = await scripted(api, 'GET', '/v1/pets')
  assert.is(gateway.status, 502)
  assert.is(gateway.text, html)
  assert.is(gateway.headers.get('content-type'), 'text/html')
  assert.is(gateway.headers.get('content-length'), String(Buffer.byteLength(html)))
})

Answers('A text answer without a Content-Type is sent as text/plain; charset=utf-8', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', answer: { status: 500, text: 'upstream said no: ü' }, times: 1 }])
  const answered = await scripted(api, 'GET', '/v1/pets')
  assert.is(answered.text, 'upstream said no: ü')
  assert.is(answered.headers.get('content-type'), 'text/plain; charset=utf-8')
})

Answers('An answer with neither body nor text has an empty body and no Content-Type but the one its headers give', async ({ api }) => {
  await setScript(api, [
    { operation: 'listPets', answer: { status: 500 }, times: 1 },
    { operation: 'listPets', answer: { status: 500, headers: { 'content-type': 'application/json' } }, times: 1 },
  ])
  const empty = await scripted(api, 'GET', '/v1/pets')
  assert.equal([empty.status, empty.text, empty.headers.get('content-type'), empty.headers.get('content-length')], [500, '', null, '0'])
  const typed = await scripted(api, 'GET', '/v1/pets')
  assert.equal([typed.text, typed.headers.get('content-type')], ['', 'application/json'])
})

Answers('A HEAD gets an answer’s status and headers, without its body', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', answer: { status: 502, text: 'bad gateway' }, times: 1 }])
  const head = await scripted(api, 'HEAD', '/v1/pets')
  assert.equal([head.status, head.text, head.headers.get('content-length')], [502, '', '11'])
})

Answers(
  'afterOperation: the create is stored, then answered as scripted (a gateway’s 504); a retry with its Idempotency-Key gets the pet, 201',
  async ({ api }) => {
    await setScript(api, [{ operation: 'createPet', answer: { status: 504, text: 'gateway timeout' }, afterOperation: true, times: 1 }])
    const lost = await scripted(api, 'POST', '/v1/pets', { body: aNewPet({ name: 'Committed' }), headers: { 'idempotency-key': 'k-504' } })
    assert.equal([lost.status, lost.text], [504, 'gateway timeout'])
    // Nothing of the operation's own answer is left: neither its Location nor its JSON type.
    assert.equal([lost.headers.get('location'), lost.headers.get('content-type')], [null, 'text/plain; charset=utf-8'])
    assert.is(await petCount(api), 6)
    const retry = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Committed' }), headers: { 'idempotency-key': 'k-504' } })
    assert.is(retry.status, 201)
    assert.equal(retry.body, { ...(retry.body as object), id: 6, name: 'Committed' })
    assert.is(await petCount(api), 6)
  },
)

Answers('afterOperation replaces whatever the operation answered, a failure too', async ({ api }) => {
  await setScript(api, [{ operation: 'getPet', answer: { status: 200, body: { id: 99 } }, afterOperation: true, times: 1 }])
  const answered = await scripted(api, 'GET', '/v1/pets/99')
  assert.equal([answered.status, answered.body, answered.headers.get('deprecation')], [200, { id: 99 }, null])
})

Answers('Without afterOperation, an answer runs nothing of the operation: no pet stored, no Idempotency-Key claimed', async ({ api }) => {
  await setScript(api, [{ operation: 'createPet', answer: { status: 201, body: { id: 1000 } }, times: 1 }])
  const answered = await scripted(api, 'POST', '/v1/pets', { body: aNewPet(), headers: { 'idempotency-key': 'k-none' } })
  assert.equal([answered.status, answered.body], [201, { id: 1000 }])
  assert.is(await petCount(api), 5)
  const real = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Other' }), headers: { 'idempotency-key': 'k-none' } })
  assert.is(real.status, 201)
})

Answers('A rule without times applies to every request it matches until the script is cleared', async ({ api }) => {
  const set = await setScript(api, [{ operation: 'listPets', answer: { status: 503 } }])
  assert.equal(set.body, [{ operation: 'listPets', answer: { status: 503 } }])
  for (let request = 0; request < 5; request += 1) assert.is((await scripted(api, 'GET', '/v1/pets')).status, 503)
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [{ operation: 'listPets', answer: { status: 503 } }])
  assert.is((await api.request('DELETE', '/v1/sandbox/faults')).status, 204)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
})

Answers('A fault rule without times applies until the script is cleared too', async ({ api }) => {
  await setScript(api, [{ operation: 'getPet', fault: '500' }])
  for (let request = 0; request < 5; request += 1) assertError(await api.request('GET', '/v1/pets/1'), 500, 'internal_error')
  assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
})

Answers('An answer goes with after, times and chance as a fault does', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', answer: { status: 418 }, after: 1, times: 2 }])
  const statuses = async (count: number): Promise<string> => {
    const seen: number[] = []
    for (let request = 0; request < count; request += 1) seen.push((await scripted(api, 'GET', '/v1/pets')).status)
    return seen.join(' ')
  }
  assert.is(await statuses(4), '200 418 418 200')
  // mulberry32 from seed 42, at one half: the sequence the fault tests name.
  await setScript(api, [{ operation: 'listPets', answer: { status: 503 }, chance: 0.5, seed: 42 }])
  assert.is(await statuses(5), '200 503 200 200 503')
})

Answers('when.params matches getPet by its petId: only the pet 7 is answered by the script', async ({ api }) => {
  await setScript(api, [
    { operation: 'getPet', when: { params: { petId: '7' } }, answer: { status: 200, body: { id: 7, name: 'Scripted' } } },
  ])
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
  assertError(await api.request('GET', '/v1/pets/70'), 404, 'not_found')
  assert.equal((await scripted(api, 'GET', '/v1/pets/7')).body, { id: 7, name: 'Scripted' })
  assert.equal((await scripted(api, 'GET', '/v1/pets/%37')).body, { id: 7, name: 'Scripted' })
})

Answers('when.query matches listPets by exact values: the second page, by its cursor and limit', async ({ api }) => {
  const first = await api.request('GET', '/v1/pets?limit=2')
  const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? ''
  const after = new URL(next, api.baseUrl).searchParams.get('after') ?? ''
  await setScript(api, [{ operation: 'listPets', when: { query: { limit: '2', after } }, answer: { status: 503 } }])
  assert.is((await api.request('GET', '/v1/pets?limit=2')).status, 200)
  assert.is((await api.request('GET', `/v1/pets?limit=3&after=${encodeURIComponent(after)}`)).status, 200)
  assert.is((await scripted(api, 'GET', next)).status, 503)
})

Answers('retryAfter is for the faults 429 and 503 alone: refused on every other fault, a delay alone and an answer', async ({ api }) => {
  for (const fault of ['429', '503'])
    assert.is((await setScript(api, [{ operation: 'listPets', fault, retryAfter: 0, times: 1 }])).status, 200)
  for (const [rule, named] of [
    [{ fault: '500' }, '[0].retryAfter: only for a fault 429 or 503: fault 500 answers no Retry-After'],
    [{ fault: '502' }, 'fault 502 answers no Retry-After'],
    [{ fault: '504' }, 'fault 504 answers no Retry-After'],
    [{ fault: 'reset' }, 'fault reset answers no Retry-After'],
    [{ fault: 'reset-after' }, 'fault reset-after answers no Retry-After'],
    [{ fault: 'truncated' }, 'fault truncated answers no Retry-After'],
    [{ delay: 10 }, '[0].retryAfter: only for a fault 429 or 503: this rule has no fault'],
    [{ answer: { status: 503 } }, '[0].retryAfter: only for a fault 429 or 503: an answer sets Retry-After in its headers'],
  ] as const) {
    const refused = await setScript(api, [{ operation: 'listPets', ...rule, retryAfter: 5, times: 1 }])
    assert.match(assertError(refused, 400, 'invalid_body'), named, JSON.stringify(rule))
  }
})

Answers(
  'A rule whose answer is wrong or goes with what it cannot is refused naming each problem; the script is unchanged',
  async ({ api }) => {
    const kept = [{ operation: 'listPets', answer: { status: 503 }, times: 1 }]
    await setScript(api, kept)
    for (const [rule, named] of [
      [{ fault: '503', answer: { status: 503 } }, '[0].answer: a rule has a fault or an answer, not both'],
      [{ afterOperation: true, fault: 'reset' }, '[0].afterOperation: is only for an answer'],
      [{ answer: { status: 200 }, afterOperation: 'yes' }, '[0].afterOperation: must be true or false'],
      [{ answer: { status: 199 } }, '[0].answer.status: must be an integer from 200 to 599'],
      [{ answer: { status: 600 } }, '[0].answer.status: must be an integer from 200 to 599'],
      [{ answer: { headers: {} } }, '[0].answer.status: must be an integer from 200 to 599'],
      [{ answer: 503 }, '[0].answer: must be an object with a status, and headers, body or text'],
      [{ answer: { status: 200, json: {} } }, '[0].answer.json: is not a field of answer (status, headers, body, text)'],
      [{ answer: { status: 200, body: {}, text: '' } }, '[0].answer: body or text, not both'],
      [{ answer: { status: 204, body: {} } }, '[0].answer: a 204 has no body'],
      [{ answer: { status: 304, text: 'x' } }, '[0].answer: a 304 has no body'],
      [{ answer: { status: 204, headers: { 'Content-Type': 'text/plain' } } }, '[0].answer.headers: a 204 has no body, so no content-type'],
      [{ answer: { status: 200, text: 1 } }, '[0].answer.text: must be a string, sent as is'],
      [{ answer: { status: 200, headers: ['x'] } }, '[0].answer.headers: must be an object'],
      [{ answer: { status: 200, headers: { 'Content-Length': '5' } } }, 'content-length cannot be set: the service frames the answer'],
      [{ answer: { status: 200, headers: { 'transfer-encoding': 'chunked' } } }, 'transfer-encoding cannot be set'],
      [{ answer: { status: 200, headers: { Connection: 'close' } } }, 'connection cannot be set'],
      [{ answer: { status: 200, headers: { 'x-a': '1', 'X-A': '2' } } }, 'x-a is named twice'],
      [{ answer: { status: 200, headers: { 'x a': '1' } } }, '"x a" is not a header name'],
      [{ answer: { status: 200, headers: { 'x-a': 1 } } }, 'x-a: must be a string, an array of strings (one line each), or null'],
      [{ answer: { status: 200, headers: { 'x-a': [] } } }, 'x-a: must be a string, an array of strings (one line each), or null'],
      [{ answer: { status: 200, headers: { 'x-a': 'a\r\nSet-Cookie: b' } } }, 'x-a: a header value holds no control character'],
      [{ answer: { status: 200, headers: { 'x-a': '€' } } }, 'x-a: a header value holds no control character and nothing beyond U+00FF'],
      [{ when: { params: { petId: '7' } }, answer: { status: 200 } }, '[0].when.params: listPets has no path parameters'],
      [{ when: { query: { offset: '2' } }, answer: { status: 200 } }, '[0].when.query: "offset" is not a query parameter of listPets'],
      [{ when: { query: { limit: 2 } }, answer: { status: 200 } }, '[0].when.query: limit: must be a string'],
      [{ when: { params: 'x' }, answer: { status: 200 } }, '[0].when.params: must be an object of parameter names'],
      [{ when: { path: { petId: '7' } }, answer: { status: 200 } }, '[0].when.path: is not a field of when (headers, body, params, query)'],
      [{}, '[0]: a rule needs a fault, an answer or a delay'],
    ] as const) {
      const refused = await setScript(api, [{ operation: 'listPets', ...rule }])
      assert.match(assertError(refused, 400, 'invalid_body'), named, JSON.stringify(rule))
    }
    assert.match(
      assertError(
        await setScript(api, [{ operation: 'createPet', when: { query: { limit: '2' } }, answer: { status: 200 } }]),
        400,
        'invalid_body',
      ),
      '[0].when.query: createPet has no query parameters',
    )
    assert.match(
      assertError(
        await setScript(api, [{ operation: 'getPet', when: { params: { id: '7' } }, answer: { status: 200 } }]),
        400,
        'invalid_body',
      ),
      '[0].when.params: "id" is not a path parameter of getPet (petId)',
    )
    assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, kept)
  },
)

Answers('GET answers an answer rule in one shape: header names in lower case, afterOperation only when true', async ({ api }) => {
  await setScript(api, [
    {
      afterOperation: true,
      answer: { text: 'x', headers: { 'X-B': ['1', '2'], 'Retry-After': null }, status: 504 },
      delay: 1,
      when: { params: { petId: '7' } },
      operation: 'getPet',
    },
    { operation: 'listPets', answer: { status: 200, body: null }, afterOperation: false, times: 1 },
  ])
  assert.is(
    (await api.request('GET', '/v1/sandbox/faults')).text,
    '[{"operation":"getPet","when":{"params":{"petId":"7"}},"answer":{"status":504,"headers":{"x-b":["1","2"],"retry-after":null},"text":"x"},"afterOperation":true,"delay":1},' +
      '{"operation":"listPets","answer":{"status":200,"body":null},"times":1}]',
  )
})

Answers('The journal marks a scripted answer with the fault "answer", which its fault filter finds', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', answer: { status: 502, text: 'bad gateway' }, times: 1 }])
  assert.is((await scripted(api, 'GET', '/v1/pets')).status, 502)
  assert.is((await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=503' } })).status, 503)
  const [entry] = (await api.request('GET', '/v1/sandbox/requests?fault=answer')).body as ReadonlyArray<Record<string, unknown>>
  assert.equal([entry?.sequence, entry?.status, entry?.fault], [1, 502, 'answer'])
  assert.is((entry?.response as { body: string }).body, 'bad gateway')
  assert.equal((await api.request('GET', '/v1/sandbox/requests/count?fault=answer')).body, { count: 1, complete: true })
})

Answers('Coverage does not count a scripted answer: the script said it, the service did not', async ({ api }) => {
  await setScript(api, [{ operation: 'createPet', answer: { status: 201, body: { id: 1 } }, times: 1 }])
  assert.is((await scripted(api, 'POST', '/v1/pets', { body: aNewPet() })).status, 201)
  const reached = (await reportOf(api)).coverage.responses.filter((response) => response.reached)
  assert.equal(reached, [])
})

Answers('A script whose answers take more than its part of the sandbox’s budget is refused, as any script', async ({ api }) => {
  // Two bytes a character: half the part in characters is already more than the part.
  const text = 'x'.repeat(DEFAULT_SANDBOX_BUDGET.scriptBytes / 2)
  const refused = await setScript(api, [{ operation: 'listPets', answer: { status: 200, text }, times: 1 }])
  assert.match(assertError(refused, 400, 'invalid_body'), `more than the ${DEFAULT_SANDBOX_BUDGET.scriptBytes} a script may`)
  const headers = { 'x-big': Array.from({ length: 1000 }, () => 'y'.repeat(64)) }
  assertError(await setScript(api, [{ operation: 'listPets', answer: { status: 200, headers }, times: 1 }]), 400, 'invalid_body')
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
})

Answers.run()

/**
 * Per-key sandboxes whose idempotency stores announce a completed create: `completed` resolves once
 * a create's record is complete, so that a test sends its retry then, not after a guessed wait.
 */
const completionWatchedSandboxes = (): { sandboxes: DataSets; completed: Promise<void> } => {
  const space = memoryStore().dataSets
  if (space === undefined) throw new Error('the memory store has sandboxes')
  let announce = (): void => undefined
  const completed = new Promise<void>((resolve) => (announce = resolve))
  const watch = (ports: StorePorts): StorePorts => ({
    ...ports,
    idempotency: {
      ...ports.idempotency,
      complete: (...args) =>
        pipe(
          ports.idempotency.complete(...args),
          TE.tap(() => TE.fromIO(announce)),
        ),
    },
  })
  return { sandboxes: { ...space, open: (sandbox) => pipe(space.open(sandbox), TE.map(watch)) }, completed }
}

const Delayed = suite('An answer after the operation, delayed')

Delayed('The delay of an answer afterOperation runs after the operation: a keyed retry meanwhile gets the stored pet', async () => {
  const { sandboxes, completed } = completionWatchedSandboxes()
  const shutdown = new AbortController()
  const api = await startApi({ sandboxes, shutdown: shutdown.signal })
  try {
    await setScript(api, [{ operation: 'createPet', answer: { status: 504 }, afterOperation: true, delay: MAX_DELAY_MS, times: 1 }])
    const body = aNewPet({ name: 'Slow' })
    const first = scripted(api, 'POST', '/v1/pets', { body, headers: { 'idempotency-key': 'slow-504' } })
    await completed
    const retry = await api.request('POST', '/v1/pets', { body, headers: { 'idempotency-key': 'slow-504' } })
    assert.equal([retry.status, (retry.body as { name: string }).name], [201, 'Slow'])
    // Shutdown ends every delay at once, so the test need not wait out the longest one.
    shutdown.abort()
    assert.is((await first).status, 504)
  } finally {
    await api.close()
  }
})

Delayed.run()

const Logged = suite('Scripted answers in the log')

Logged('a scripted answer is logged as forced, with the fault "answer" and its status', async () => {
  const log = capturedLogger()
  const api = await startApi({ sandboxes: memoryStore().dataSets, logger: log.logger })
  try {
    await setScript(api, [{ operation: 'getPet', answer: { status: 200, body: {} }, afterOperation: true, times: 1 }])
    await scripted(api, 'GET', '/v1/pets/1')
  } finally {
    await api.close()
  }
  const line = log.lines().find((entry) => entry.msg === 'request' && entry.route === '/v1/pets/:petId')
  assert.equal(
    { status: line?.status, fault: line?.fault, forced: line?.forced, failure: line?.failure },
    { status: 200, fault: 'answer', forced: true, failure: undefined },
  )
})

Logged.run()
