import { request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { MAX_DELAY_MS } from '../../adapters/test-target/fault-rule.js'
import type { DataSets } from '../../src/store/data-sets.js'
import type { StorePorts } from '../../src/store/store-ports.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { capturedLogger } from '../support/captured-logger.js'
import { rawExchange } from '../support/raw-http.js'
import { OTHER_KEY, type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

const withSandboxFaults = () => ({ sandboxes: memoryStore().dataSets })

const setScript = (api: RunningApi, rules: unknown, key: string = TEST_KEY) =>
  api.request('PUT', '/v1/sandbox/faults', { body: rules, key })

const create = (api: RunningApi, headers: Record<string, string> = {}, key: string = TEST_KEY) =>
  api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex' }), headers, key })

const petCount = async (api: RunningApi, key: string = TEST_KEY): Promise<number> =>
  ((await api.request('GET', '/v1/pets?limit=100', { key })).body as ReadonlyArray<unknown>).length

/** What a client sees on a raw connection: the bytes received, and how the connection ended. */
const rawCreate = (api: RunningApi, headers: Record<string, string>): Promise<{ received: string; ended: string; announced?: number }> =>
  new Promise((resolve) => {
    const body = JSON.stringify(aNewPet({ name: 'Rex' }))
    const request = httpRequest(`${api.baseUrl}/v1/pets`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        ...headers,
      },
    })
    request.on('response', (response) => {
      let received = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (received += chunk))
      response.on('end', () => resolve({ received, ended: 'complete', announced: Number(response.headers['content-length']) }))
      response.on('aborted', () => resolve({ received, ended: 'aborted', announced: Number(response.headers['content-length']) }))
      response.on('error', () => resolve({ received, ended: 'aborted', announced: Number(response.headers['content-length']) }))
    })
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ received: '', ended: error.code ?? error.message }))
    request.end(body)
  })

/** One HTTP/1.1 request with the test key, as raw bytes. */
const rawRequest = (method: string, path: string, headers: Record<string, string> = {}): string =>
  [
    `${method} ${path} HTTP/1.1`,
    'Host: x',
    `Authorization: Bearer ${TEST_KEY}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n')

/**
 * Sends `request` from a client that never closes its own half of the connection (as the server
 * allows), and resolves with what it received once the server's half ends.
 */
const fromHalfOpenClient = (api: RunningApi, request: string): Promise<{ received: string; socket: Socket }> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(api.baseUrl)
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true })
    let received = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (received += chunk))
    socket.on('error', () => undefined)
    const ended = (): void => resolve({ received, socket })
    socket.once('end', ended)
    socket.once('close', ended)
    socket.write(request)
  })

/** A truncated answer's bytes: the status line and the header lines, as `name: value`, and whether the head ended. */
const cutHead = (received: string): { statusLine: string; headerLines: ReadonlyArray<string>; headEnded: boolean } => {
  const [statusLine = '', ...headerLines] = received.split('\r\n')
  return { statusLine, headerLines: headerLines.filter((line) => line !== ''), headEnded: received.includes('\r\n\r\n') }
}

const Script = apiSuite('Scripted faults: PETSTORE_TEST_TARGET=on', withSandboxFaults)

Script('A rule fails the next `times` requests of its operation, then the operation succeeds', async ({ api }) => {
  const set = await setScript(api, [{ operation: 'createPet', fault: '503', times: 2 }])
  assert.is(set.status, 200)
  assert.equal(set.body, [{ operation: 'createPet', fault: '503', times: 2 }])
  assertError(await create(api), 503, 'service_unavailable')
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [{ operation: 'createPet', fault: '503', times: 1 }])
  const second = await create(api)
  assertError(second, 503, 'service_unavailable')
  assert.match((second.body as { message: string }).message, "forced by the sandbox's fault script (fault 503)")
  assert.is((await create(api)).status, 201)
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
  assert.is(await petCount(api), 1)
})

Script('Each request takes the first rule of its operation; other operations are not touched', async ({ api }) => {
  await setScript(api, [
    { operation: 'getPet', fault: '500', times: 1 },
    { operation: 'createPet', fault: '429', times: 1, retryAfter: 0 },
    { operation: 'createPet', fault: '502', times: 1 },
  ])
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  const limited = await create(api)
  assertError(limited, 429, 'rate_limited')
  assert.is(limited.headers.get('retry-after'), '0')
  assertError(await create(api), 502, 'bad_gateway')
  assertError(await api.request('GET', '/v1/pets/1'), 500, 'internal_error')
  assert.is((await create(api)).status, 201)
})

Script('A request’s own Prefer: fault wins over the script and does not consume it', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', fault: '503', times: 1 }])
  const preferred = await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=504' } })
  assertError(preferred, 504, 'gateway_timeout')
  assert.is(preferred.headers.get('preference-applied'), 'fault=504')
  assertError(await api.request('GET', '/v1/pets'), 503, 'service_unavailable')
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
})

Script('Prefer: retry-after sets the Retry-After of a forced 503 or 429', async ({ api }) => {
  const unavailable = await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=503, retry-after=0' } })
  assertError(unavailable, 503, 'service_unavailable')
  assert.is(unavailable.headers.get('retry-after'), '0')
  assert.is(unavailable.headers.get('preference-applied'), 'fault=503, retry-after=0')
  const limited = await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=429, retry-after=7' } })
  assert.is(limited.headers.get('retry-after'), '7')
  assert.is(limited.headers.get('ratelimit'), '"default";r=0;t=7')
})

Script(
  'A script with an unknown field or value is refused with 400 naming it by its rule’s index, and the script is unchanged',
  async ({ api }) => {
    await setScript(api, [{ operation: 'getPet', fault: '503', times: 3 }])
    for (const [rules, named] of [
      [[{ operation: 'getPet', fault: '503', times: 1, fails: 2 }], '[0].fails: is not a field of a rule'],
      [[{ operation: 'deletePet', fault: '503', times: 1 }], '[0].operation: must be one of listPets, createPet, getPet'],
      [[{ operation: 'getPet', fault: '418', times: 1 }], '[0].fault: must be one of'],
      [[{ operation: 'getPet', fault: '503', times: 0 }], '[0].times: must be an integer from 1 to 1000'],
      [[{ operation: 'getPet', fault: '503', times: 1, retryAfter: 3601 }], '[0].retryAfter: must be an integer from 0 to 3600'],
      [[{ operation: 'getPet', fault: '503', times: 1, delay: 10_001 }], '[0].delay: must be an integer from 0 to 10000'],
      [{ operation: 'getPet', fault: '503', times: 1 }, 'the body must be a JSON array of rules'],
      [
        [
          { operation: 'getPet', fault: '503', times: 1 },
          { operation: 'getPet', fault: '503', times: 'x' },
        ],
        '[1].times: must be an integer from 1 to 1000',
      ],
      [[{ operation: 'getPet', times: 1 }], '[0]: a rule needs a fault, an answer or a delay (a delay goes with either)'],
      [[{ operation: 'getPet', fault: '503', times: 1, after: -1 }], '[0].after: must be an integer from 0 to 1000000'],
      [[{ operation: 'getPet', fault: '503', times: 1, chance: 1.5, seed: 1 }], '[0].chance: must be a number from 0 to 1'],
      [[{ operation: 'getPet', fault: '503', times: 1, chance: '0.5', seed: 1 }], '[0].chance: must be a number from 0 to 1'],
      [[{ operation: 'getPet', fault: '503', times: 1, chance: 0.5, seed: 2 ** 32 }], '[0].seed: must be an integer from 0 to 4294967295'],
      [[{ operation: 'getPet', fault: '503', times: 1, chance: 0.5 }], '[0].seed: is required with chance'],
      [[{ operation: 'getPet', fault: '503', times: 1, seed: 1 }], '[0].seed: is only for chance'],
      [[{ operation: 'getPet', fault: '503', times: 1, when: { operation: 'getPet' } }], '[0].when.operation: is not a field of when'],
      [
        [{ operation: 'getPet', fault: '503', times: 1, when: 'x-test: a' }],
        '[0].when: must be an object with headers, body, params or query',
      ],
      [[{ operation: 'getPet', fault: '503', times: 1, when: { headers: ['x-test'] } }], '[0].when.headers: must be an object'],
      [[{ operation: 'getPet', fault: '503', times: 1, when: { headers: { 'x-test': 1 } } }], '[0].when.headers: x-test: must be a string'],
      [
        [{ operation: 'getPet', fault: '503', times: 1, when: { headers: { 'x test': 'a' } } }],
        '[0].when.headers: "x test" is not a header name',
      ],
      [[{ operation: 'getPet', fault: '503', times: 1, when: { headers: { 'X-Test': 'a', 'x-test': 'b' } } }], 'x-test is named twice'],
      [
        [{ operation: 'getPet', fault: '503', times: 1, when: { headers: { Authorization: 'Bearer x' } } }],
        'authorization cannot be matched',
      ],
      [[{ operation: 'createPet', fault: '503', times: 1, when: { body: ['Rex'] } }], '[0].when.body: must be an object'],
      [
        [{ operation: 'createPet', fault: '503', times: 1, when: { body: { name: 'x'.repeat(5000) } } }],
        '[0].when: must be at most 1024 characters of JSON',
      ],
    ] as const) {
      const refused = await setScript(api, rules)
      assert.match(assertError(refused, 400, 'invalid_body'), named, JSON.stringify(rules))
    }
    assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [{ operation: 'getPet', fault: '503', times: 3 }])
  },
)

Script('Two keys never see or change each other’s script; DELETE and a reset clear one', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', fault: '500', times: 5 }])
  assert.equal((await api.request('GET', '/v1/sandbox/faults', { key: OTHER_KEY })).body, [])
  assert.is((await api.request('GET', '/v1/pets', { key: OTHER_KEY })).status, 200)
  assert.is((await api.request('DELETE', '/v1/sandbox/faults')).status, 204)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  await setScript(api, [{ operation: 'listPets', fault: '500', times: 5 }])
  assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
})

Script('reset: the connection is reset before any byte of an answer, and nothing is stored', async ({ api }) => {
  const seen = await rawCreate(api, { prefer: 'fault=reset' })
  assert.is(seen.ended, 'ECONNRESET')
  assert.is(await petCount(api), 0)
})

Script('reset-after: the pet is stored and its key completed, the connection reset; a retry with the key gets the pet', async ({ api }) => {
  const seen = await rawCreate(api, { prefer: 'fault=reset-after', 'idempotency-key': 'lost-answer-1' })
  assert.is(seen.ended, 'ECONNRESET')
  assert.is(await petCount(api), 1)
  const retry = await create(api, { 'idempotency-key': 'lost-answer-1' })
  assert.is(retry.status, 201)
  assert.is((retry.body as { id: number }).id, 1)
  assert.is(await petCount(api), 1)
})

Script('truncated: the real status and headers, then fewer bytes than Content-Length, then the connection closes', async ({ api }) => {
  await setScript(api, [{ operation: 'createPet', fault: 'truncated', times: 1 }])
  const seen = await rawCreate(api, {})
  assert.is(seen.ended, 'aborted')
  assert.ok(seen.announced !== undefined && seen.received.length < seen.announced, JSON.stringify(seen))
  assert.ok(seen.received.length > 0)
  assert.is(await petCount(api), 1)
})

Script(
  'truncated: the server lets go of the connection once the bytes are sent, even while the client keeps its half open',
  async ({ api }) => {
    for (const method of ['GET', 'HEAD']) {
      const { received, socket } = await fromHalfOpenClient(api, rawRequest(method, '/v1/pets', { prefer: 'fault=truncated' }))
      try {
        assert.match(received, /^HTTP\/1\.1 200 OK\r\n/, method)
        assert.is(await api.openConnections(), 0, `${method}: the server still holds the connection`)
      } finally {
        socket.destroy()
      }
    }
  },
)

Script(
  'truncated, on an answer without a body (HEAD, 304): its status line, the first half of its header lines, then the connection closes',
  async ({ api }) => {
    const etag = (await api.request('GET', '/v1/pets')).headers.get('etag') ?? ''
    for (const [request, status] of [
      [rawRequest('HEAD', '/v1/pets', { prefer: 'fault=truncated' }), 'HTTP/1.1 200 OK'],
      [rawRequest('GET', '/v1/pets', { prefer: 'fault=truncated', 'if-none-match': etag }), 'HTTP/1.1 304 Not Modified'],
    ] as const) {
      const { text } = await rawExchange(api.baseUrl, request)
      const cut = cutHead(text)
      assert.is(cut.statusLine, status, text)
      assert.ok(cut.headerLines.length > 0 && cut.headerLines.every((line) => /^[a-z-]+: ./.test(line)), text)
      assert.not.ok(cut.headEnded, text)
      assert.ok(text.endsWith('\r\n'), text)
    }
  },
)

Script('a delay on a keyed create is listed in Preference-Applied only when it ran', async ({ api }) => {
  const created = await create(api, { prefer: 'delay=50', 'idempotency-key': 'slow-2' })
  assert.is(created.status, 201)
  assert.is(created.headers.get('preference-applied'), 'delay=50')
  const refused = await api.request('POST', '/v1/pets', {
    body: aNewPet({ name: '' }),
    headers: { prefer: 'delay=50', 'idempotency-key': 'slow-3' },
  })
  assertError(refused, 400, 'invalid_body')
  assert.is(refused.headers.get('preference-applied'), null)
})

Script(
  'Every number of a rule is one the client wrote: a number that only rounds to an integer is refused, naming the field',
  async ({ api }) => {
    for (const [field, literal] of [
      ['times', '0.99999999999999999'],
      ['retryAfter', '1e-400'],
      ['delay', '9007199254740990.9'],
      ['after', '0.99999999999999999'],
      ['seed', '1e-400'],
    ] as const) {
      const chance = field === 'seed' ? ',"chance":0.5' : ''
      const body = `[{"operation":"createPet","fault":"503","times":1${chance},"${field}":${literal}}]`.replace(
        '"times":1,"times"',
        '"times"',
      )
      const response = await api.request('PUT', '/v1/sandbox/faults', { body, headers: { 'content-type': 'application/json' } })
      assert.match(assertError(response, 400, 'invalid_body'), `${field}: must be an integer`, literal)
    }
    // Nor is a chance a number the client did not write: one that only rounds to 0 or 1 is refused.
    for (const literal of ['1e-400', '0.99999999999999999']) {
      const body = `[{"operation":"createPet","fault":"503","times":1,"chance":${literal},"seed":1}]`
      const response = await api.request('PUT', '/v1/sandbox/faults', { body, headers: { 'content-type': 'application/json' } })
      assert.match(assertError(response, 400, 'invalid_body'), 'chance: must be a number from 0 to 1', literal)
    }
    assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
    // A literal that denotes an integer exactly is one, however written.
    const exact = await api.request('PUT', '/v1/sandbox/faults', {
      body: '[{"operation":"createPet","fault":"503","times":2.0,"retryAfter":1e1}]',
      headers: { 'content-type': 'application/json' },
    })
    assert.equal(exact.body, [{ operation: 'createPet', fault: '503', times: 2, retryAfter: 10 }])
  },
)

Script('When a script is sent empty, then 400 invalid_json saying to send an array of rules', async ({ api }) => {
  const response = await api.request('PUT', '/v1/sandbox/faults', { body: '', headers: { 'content-type': 'application/json' } })
  assert.is(assertError(response, 400, 'invalid_json'), 'the request body is empty; send a JSON array of fault rules')
})

Script('A rule with a delay and no fault answers normally, and counts down like any rule', async ({ api }) => {
  const set = await setScript(api, [{ operation: 'listPets', delay: 1, times: 2 }])
  assert.equal(set.body, [{ operation: 'listPets', times: 2, delay: 1 }])
  const slow = await api.request('GET', '/v1/pets')
  assert.is(slow.status, 200)
  assert.equal(slow.body, [])
  // Only what Prefer asked for is listed.
  assert.is(slow.headers.get('preference-applied'), null)
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [{ operation: 'listPets', times: 1, delay: 1 }])
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
})

Script('A rule with when.headers applies only to requests carrying each of those values; names in any case', async ({ api }) => {
  const set = await setScript(api, [{ operation: 'listPets', when: { headers: { 'X-Test': 'retry-case' } }, fault: '503', times: 1 }])
  assert.equal(set.body, [{ operation: 'listPets', when: { headers: { 'x-test': 'retry-case' } }, fault: '503', times: 1 }])
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assert.is((await api.request('GET', '/v1/pets', { headers: { 'x-test': 'other-case' } })).status, 200)
  assert.is((await api.request('GET', '/v1/pets', { headers: { 'x-test': 'Retry-Case' } })).status, 200)
  assertError(await api.request('GET', '/v1/pets', { headers: { 'X-TEST': 'retry-case' } }), 503, 'service_unavailable')
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
})

Script('A header sent on several lines matches as its values joined with ", "', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', when: { headers: { 'x-test': 'a, b' } }, fault: '503', times: 1 }])
  assert.is((await api.request('GET', '/v1/pets', { headerLines: [['x-test', 'a']] })).status, 200)
  const lines = [
    ['X-Test', 'a'],
    ['x-test', 'b'],
  ] as const
  assertError(await api.request('GET', '/v1/pets', { headerLines: lines }), 503, 'service_unavailable')
})

Script('A rule with when.body applies only to creates whose body has each of those top-level members, equal as JSON', async ({ api }) => {
  await setScript(api, [{ operation: 'createPet', when: { body: { name: 'Rex', test: { case: [1, 'a'] } } }, fault: '500', times: 1 }])
  assert.is((await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex' }) })).status, 201)
  assert.is((await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Tom', test: { case: [1, 'a'] } }) })).status, 201)
  assert.is((await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex', test: { case: [1, 'b'] } }) })).status, 201)
  const matched = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex', test: { case: [1, 'a'] } }) })
  assertError(matched, 500, 'internal_error')
  assert.is(await petCount(api), 3)
})

Script('A body rule never matches a body that is not a JSON object; a body refused as unreadable takes no rule', async ({ api }) => {
  await setScript(api, [
    { operation: 'createPet', when: { body: { name: 'Rex' } }, fault: '503', times: 1 },
    { operation: 'createPet', fault: '500', times: 1 },
  ])
  const json = { 'content-type': 'application/json' }
  assertError(await api.request('POST', '/v1/pets', { body: '{"name":', headers: json }), 400, 'invalid_json')
  assertError(
    await api.request('POST', '/v1/pets', { body: 'name=Rex', headers: { 'content-type': 'text/plain' } }),
    415,
    'unsupported_media_type',
  )
  assert.is(((await api.request('GET', '/v1/sandbox/faults')).body as ReadonlyArray<unknown>).length, 2)
  // Read, but not an object: the body rule does not match; the next rule does.
  assertError(await api.request('POST', '/v1/pets', { body: '["Rex"]', headers: json }), 500, 'internal_error')
  assertError(await create(api), 503, 'service_unavailable')
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
})

Script('A body rule for listPets or getPet is refused: they have no body', async ({ api }) => {
  for (const operation of ['listPets', 'getPet']) {
    const refused = await setScript(api, [{ operation, when: { body: { name: 'Rex' } }, fault: '503', times: 1 }])
    assert.match(assertError(refused, 400, 'invalid_body'), `[0].when.body: only createPet has a body (${operation} has none)`)
  }
})

Script('A request takes the first rule it matches; a rule it does not match lets later rules be tried', async ({ api }) => {
  await setScript(api, [
    { operation: 'createPet', when: { headers: { 'x-attempt': '1' } }, fault: '502', times: 5 },
    { operation: 'createPet', when: { body: { name: 'Tom' } }, fault: '504', times: 5 },
    { operation: 'createPet', fault: '500', times: 1 },
  ])
  assertError(await create(api, { 'x-attempt': '1' }), 502, 'bad_gateway')
  assertError(await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Tom' }) }), 504, 'gateway_timeout')
  assertError(await create(api, { 'x-attempt': '2' }), 500, 'internal_error')
  assert.is((await create(api)).status, 201)
})

Script('after: N lets the first N matching requests through untouched, then the rule applies `times` times', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', after: 2, fault: '503', times: 2 }])
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [{ operation: 'listPets', fault: '503', times: 2, after: 1 }])
  // A request the rule does not match is not counted.
  assert.is((await api.request('GET', '/v1/pets/1')).status, 404)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assertError(await api.request('GET', '/v1/pets'), 503, 'service_unavailable')
  assertError(await api.request('GET', '/v1/pets'), 503, 'service_unavailable')
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
})

/** The statuses of `count` lists with `key`. */
const listStatuses = async (api: RunningApi, count: number, key: string = TEST_KEY): Promise<string> => {
  const statuses: number[] = []
  for (let index = 0; index < count; index += 1) statuses.push((await api.request('GET', '/v1/pets', { key })).status)
  return statuses.join(' ')
}

/** What mulberry32 draws from seed 42, as statuses with chance 0.5: the sequence a seed names in every version. */
const SEED_42_AT_HALF = '200 503 200 200 503 200 503 200 200 503 503 200'

Script('chance with a seed fails matching requests at random, the same sequence every run for the same seed', async ({ api }) => {
  const rule = { operation: 'listPets', fault: '503', times: 1000, chance: 0.5, seed: 42 }
  await setScript(api, [rule])
  await setScript(api, [rule], OTHER_KEY)
  assert.is(await listStatuses(api, 12), SEED_42_AT_HALF)
  assert.is(await listStatuses(api, 12, OTHER_KEY), SEED_42_AT_HALF)
  await setScript(api, [{ ...rule, seed: 7 }])
  assert.is.not(await listStatuses(api, 12), SEED_42_AT_HALF)
})

Script('With chance, times counts the requests failed, not those let through', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', fault: '503', times: 2, chance: 0.5, seed: 42 }])
  assert.is(await listStatuses(api, 8), '200 503 200 200 503 200 200 200')
  assert.equal((await api.request('GET', '/v1/sandbox/faults')).body, [])
})

Script('GET shows a chance rule’s seed as its generator now: put back, the rule goes on with the same sequence', async ({ api }) => {
  await setScript(api, [{ operation: 'listPets', fault: '503', times: 100, chance: 0.5, seed: 42 }])
  assert.is(await listStatuses(api, 3), SEED_42_AT_HALF.slice(0, 11))
  const remaining = (await api.request('GET', '/v1/sandbox/faults')).body
  assert.equal(remaining, [{ operation: 'listPets', fault: '503', times: 99, chance: 0.5, seed: 1_199_730_185 }])
  await setScript(api, remaining, OTHER_KEY)
  assert.is(await listStatuses(api, 9, OTHER_KEY), SEED_42_AT_HALF.slice(12))
})

Script('GET answers each rule in one shape: only its fields, in one order, header names in lower case', async ({ api }) => {
  await setScript(api, [
    {
      seed: 9,
      chance: 0.25,
      after: 1,
      delay: 5,
      retryAfter: 0,
      times: 3,
      fault: '503',
      when: { body: { b: 1 }, headers: { 'X-A': 'a' } },
      operation: 'createPet',
    },
  ])
  assert.is(
    (await api.request('GET', '/v1/sandbox/faults')).text,
    '[{"operation":"createPet","when":{"headers":{"x-a":"a"},"body":{"b":1}},"fault":"503","times":3,"retryAfter":0,"delay":5,"after":1,"chance":0.25,"seed":9}]',
  )
})

Script.run()

/**
 * Per-key sandboxes whose idempotency stores announce a claim: `claimed` resolves once a create has
 * claimed its key, so that a test sends its retry then, not after a guessed wait.
 */
const claimWatchedSandboxes = (): { sandboxes: DataSets; claimed: Promise<void> } => {
  const space = memoryStore().dataSets
  if (space === undefined) throw new Error('the memory store has sandboxes')
  let announce = (): void => undefined
  const claimed = new Promise<void>((resolve) => (announce = resolve))
  const watched = new WeakMap<StorePorts, StorePorts>()
  const watch = (ports: StorePorts): StorePorts => {
    const known = watched.get(ports) ?? {
      ...ports,
      idempotency: {
        ...ports.idempotency,
        claim: (scope, fingerprint) =>
          pipe(
            ports.idempotency.claim(scope, fingerprint),
            TE.tapIO((claim) => () => (claim.kind === 'claimed' ? announce() : undefined)),
          ),
      },
    }
    watched.set(ports, known)
    return known
  }
  return { sandboxes: { ...space, open: (sandbox) => pipe(space.open(sandbox), TE.map(watch)) }, claimed }
}

const Held = suite('A delay on a keyed create, held while a retry is answered')

for (const [rule, how] of [
  ['A scripted delay on a create with an Idempotency-Key runs after the key is claimed: a retry meanwhile is 409', 'script'],
  ['Prefer: delay on a create with an Idempotency-Key runs after the key is claimed: a retry meanwhile is 409', 'prefer'],
] as const) {
  Held(rule, async () => {
    const { sandboxes, claimed } = claimWatchedSandboxes()
    const shutdown = new AbortController()
    const api = await startApi({ sandboxes, shutdown: shutdown.signal })
    try {
      if (how === 'script') await setScript(api, [{ operation: 'createPet', delay: MAX_DELAY_MS, times: 1 }])
      const first = create(api, { 'idempotency-key': 'slow-1', ...(how === 'prefer' ? { prefer: `delay=${MAX_DELAY_MS}` } : {}) })
      await claimed
      assertError(await create(api, { 'idempotency-key': 'slow-1' }), 409, 'idempotency_key_in_use')
      // Shutdown ends every delay at once, so the test need not wait out the longest one.
      shutdown.abort()
      const created = await first
      assert.is(created.status, 201)
      assert.is(await petCount(api), 1)
      const replayed = await create(api, { 'idempotency-key': 'slow-1' })
      assert.equal(replayed.body, created.body)
    } finally {
      await api.close()
    }
  })
}

Held.run()

const Logged = suite('Sandbox faults in the log')

Logged('a request whose connection a fault reset is logged with the fault and no status', async () => {
  const log = capturedLogger()
  const api = await startApi({ ...withSandboxFaults(), logger: log.logger })
  try {
    // Logged as the faults middleware returns, in the same turn as the reset: before the client hears of it.
    await rawCreate(api, { prefer: 'fault=reset' })
  } finally {
    await api.close()
  }
  const [line] = log.lines().filter((entry) => entry.msg === 'request')
  assert.equal(
    { status: line?.status, fault: line?.fault, forced: line?.forced, failure: line?.failure },
    { status: null, fault: 'reset', forced: true, failure: undefined },
  )
})

Logged('a truncated answer without a body is logged with the status its cut head carried', async () => {
  const log = capturedLogger()
  const api = await startApi({ ...withSandboxFaults(), logger: log.logger })
  let received = ''
  try {
    received = (await rawExchange(api.baseUrl, rawRequest('HEAD', '/v1/pets', { prefer: 'fault=truncated' }))).text
  } finally {
    await api.close()
  }
  const [line] = log.lines().filter((entry) => entry.msg === 'request')
  assert.equal(
    { status: line?.status, fault: line?.fault },
    { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1] ?? Number.NaN), fault: 'truncated' },
  )
})

Logged.run()
