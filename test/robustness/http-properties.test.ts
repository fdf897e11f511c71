import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cursorCodec } from '../../adapters/http/cursor.js'
import { OTHER_KEY, type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'
import { expectedAuthStatus, expectedCreateStatus, expectedGetStatus, expectedListStatus, expectedPet, STATUSES } from './request-model.js'

/**
 * Generated requests over real HTTP against the composed app. Every response also passes the
 * contract checker (test/support/start-api.ts), so each is a valid Pet, Pets or Error by construction.
 * Run counts add up to 10,000 requests; the seed is printed so that a failure can be replayed.
 */
const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31))
const RUNS = { create: 3500, list: 3000, get: 2000, auth: 1500 }
const CURSOR_SECRET = 'property-test-cursor-secret'
const cursors = cursorCodec(CURSOR_SECRET)

interface Context {
  api: RunningApi
  /** Ids of the pets created so far, to predict 200 or 404. */
  created: Set<number>
}

const tally = new Map<string, number>()
const count = (property: string, status: number): void => {
  const key = `${property} ${status}`
  tally.set(key, (tally.get(key) ?? 0) + 1)
}
const report = (property: string, runs: number): void => {
  const shares = [...tally.entries()]
    .filter(([key]) => key.startsWith(`${property} `))
    .map(([key, n]) => `${key.split(' ')[1] ?? ''}: ${((100 * n) / runs).toFixed(1)}%`)
  console.log(`  ${property}: ${runs} requests, ${shares.join(', ')}`)
}

const validName = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
const validNewPet = fc.record(
  {
    name: validName,
    categoryId: fc.maxSafeInteger().map((n) => n - Math.floor(Number.MAX_SAFE_INTEGER / 2)),
    status: fc.constantFrom(...STATUSES),
    id: fc.integer(),
  },
  { requiredKeys: ['name', 'categoryId'] },
)
const anyField = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(''),
  fc.string({ unit: 'binary', maxLength: 4 }),
)
const mutatedNewPet = fc.record(
  {
    name: fc.oneof(validName, anyField),
    categoryId: fc.oneof(fc.integer(), anyField, fc.constant(2 ** 53)),
    status: fc.oneof(fc.constantFrom(...STATUSES), anyField),
  },
  { requiredKeys: [] },
)
const body = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .oneof(
        { weight: 3, arbitrary: validNewPet },
        { weight: 2, arbitrary: mutatedNewPet },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      )
      .map((value) => JSON.stringify(value) ?? ''),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constant(''),
      fc.constant('{"name":"Rex","categoryId":1,"__proto__":{}}'),
      fc.constant('{"name":"a\\ud800","categoryId":1}'),
    ),
  },
)
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/json;charset=UTF-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'application/merge-patch+json',
      'multipart/form-data; boundary=x',
      'application/jsonx',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
)

const parameterName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('limit', 'status', 'after') },
  { weight: 1, arbitrary: fc.constantFrom('offset', 'page', 'status[$ne]', 'LIMIT', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
)
const parameterValue = fc.oneof(
  fc.integer({ min: -5, max: 120 }).map(String),
  fc.constantFrom(...STATUSES, 'Sold', '', '05', '+5', '1e2', '2.5'),
  fc.integer({ min: 1, max: 400 }).map((id) => cursors.encode(id)),
  fc.integer({ min: 1, max: 400 }).map((id) => `${cursors.encode(id)}x`),
  fc.string({ maxLength: 12 }),
)
const queryParameters = fc.array(fc.tuple(parameterName, parameterValue), { maxLength: 4 })

const petId = fc.oneof(
  fc.integer({ min: -3, max: 60 }).map(String),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.constantFrom('0', '-0', '01', '+1', '1e3', '0x10', '1.5', '9223372036854775807', '9223372036854775808', '-9223372036854775808'),
  fc.string({ minLength: 1, maxLength: 12 }).filter((text) => text !== '.' && text !== '..'),
)

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 40 })
const authorization = fc.oneof(
  fc.constantFrom(
    `Bearer ${TEST_KEY}`,
    `bearer ${OTHER_KEY}`,
    `BEARER   ${TEST_KEY}`,
    `Bearer ${TEST_KEY}x`,
    `Basic ${TEST_KEY}`,
    TEST_KEY,
    'Bearer',
    '',
  ),
  fc
    .tuple(fc.constantFrom('Bearer', 'bearer', 'Token', ''), fc.constantFrom(' ', '  ', '\t', ''), printable)
    .map(([scheme, space, token]) => `${scheme}${space}${token}`),
  printable,
)

const Properties = suite<Context>('HTTP properties (fast-check)', {} as Context)

Properties.before(async (context) => {
  console.log(`  property tests: seed ${SEED} (replay with FC_SEED=${SEED} npm test)`)
  context.api = await startApi({ cursors: cursorCodec(CURSOR_SECRET) })
  context.created = new Set()
})
Properties.after(async (context) => {
  await context.api.close()
})

Properties(
  'createPet answers 201, 400 or 415 as the rules predict, and every created pet round-trips through get and list',
  async ({ api, created }) => {
    await fc.assert(
      fc.asyncProperty(contentType, body, async (type, text) => {
        const expected = expectedCreateStatus(type, text)
        const response = await api.request('POST', '/v1/pets', { body: text, headers: type === undefined ? {} : { 'content-type': type } })
        count('createPet', response.status)
        assert.is(response.status, expected, `${String(type)} ${text}`)
        if (response.status !== 201) return
        const pet = response.body as { id: number }
        created.add(pet.id)
        assert.equal(pet, expectedPet(pet.id, text))
        assert.equal((await api.request('GET', `/v1/pets/${pet.id}`)).body, pet)
        const after = pet.id > 1 ? `&after=${cursors.encode(pet.id - 1)}` : ''
        assert.equal((await api.request('GET', `/v1/pets?limit=1${after}`)).body, [pet])
      }),
      { seed: SEED, numRuns: RUNS.create },
    )
    report('createPet', RUNS.create)
  },
)

Properties('listPets answers 200 with at most limit pets of the status, in id order after the cursor, or 400', async ({ api }) => {
  await fc.assert(
    fc.asyncProperty(queryParameters, async (parameters) => {
      const query = new URLSearchParams(parameters.map(([name, value]): [string, string] => [name, value])).toString()
      const response = await api.request('GET', `/v1/pets${query === '' ? '' : `?${query}`}`)
      count('listPets', response.status)
      assert.is(
        response.status,
        expectedListStatus(parameters, (text) => cursors.decode(text) !== undefined),
        query,
      )
      if (response.status !== 200) return
      const given = new Map(parameters)
      const pets = response.body as ReadonlyArray<{ id: number; status: string }>
      assert.ok(pets.length <= Number(given.get('limit') ?? 20))
      const status = given.get('status')
      if (status !== undefined) assert.ok(pets.every((pet) => pet.status === status))
      const after = given.get('after')
      const floor = after === undefined ? 0 : (cursors.decode(after) ?? 0)
      assert.ok(pets.every((pet, index) => pet.id > floor && (index === 0 || pet.id > (pets[index - 1]?.id ?? 0))))
    }),
    { seed: SEED, numRuns: RUNS.list },
  )
  report('listPets', RUNS.list)
})

Properties('getPet answers 200 for an existing id, 404 for any other int64 and 400 for anything else', async ({ api, created }) => {
  await fc.assert(
    fc.asyncProperty(petId, async (id) => {
      const response = await api.request('GET', `/v1/pets/${encodeURIComponent(id)}`)
      count('getPet', response.status)
      assert.is(
        response.status,
        expectedGetStatus(id, (value) => created.has(Number(value)) && value <= BigInt(Number.MAX_SAFE_INTEGER)),
        id,
      )
    }),
    { seed: SEED, numRuns: RUNS.get },
  )
  report('getPet', RUNS.get)
})

Properties('any Authorization header is answered 200 only for a configured key, 401 otherwise', async ({ api }) => {
  await fc.assert(
    fc.asyncProperty(authorization, async (header) => {
      const response = await api.request('GET', '/v1/pets?limit=1', { key: false, headers: header === '' ? {} : { authorization: header } })
      count('auth', response.status)
      assert.is(response.status, expectedAuthStatus(header, [TEST_KEY, OTHER_KEY]), JSON.stringify(header))
    }),
    { seed: SEED, numRuns: RUNS.auth },
  )
  report('auth', RUNS.auth)
})

Properties.run()
