import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { MAX_ADVANCE_MS, MAX_AHEAD_MS } from '../../adapters/test-target/sandbox-clock.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { gate, idsOf, SEED, SEEDED_IDS, withSandboxPets } from '../support/sandbox-spaces.js'
import { type ApiResponse, OTHER_KEY, type RunningApi } from '../support/start-api.js'

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS

interface SandboxClock {
  readonly now: string
  readonly advancedMs: number
}

const clockOf = (response: ApiResponse): SandboxClock => {
  assert.is(response.status, 200, response.text)
  return response.body as SandboxClock
}

const readClock = async (api: RunningApi, key?: string): Promise<SandboxClock> =>
  clockOf(await api.request('GET', '/v1/sandbox/clock', key === undefined ? {} : { key }))

const advance = async (api: RunningApi, ms: number, key?: string): Promise<SandboxClock> =>
  clockOf(await api.request('POST', '/v1/sandbox/clock', { body: { advance: ms }, ...(key === undefined ? {} : { key }) }))

/**
 * That `clock` is `advancedMs` ahead of real time. The service's reading and this one are apart by
 * however long a busy machine takes between them: an hour's margin, against advances of a day.
 */
const assertAhead = (clock: SandboxClock, advancedMs: number): void => {
  assert.is(clock.advancedMs, advancedMs)
  const ahead = Date.parse(clock.now) - Date.now()
  assert.ok(Math.abs(ahead - advancedMs) < HOUR_MS, `${ahead} ms ahead of real time, not ${advancedMs}`)
}

const Clock = apiSuite("Per-key sandboxes: each sandbox's clock", () => ({ sandboxes: memoryStore(SEED).dataSets }))

Clock("A sandbox's clock reads real time until it is advanced, in ISO 8601 UTC with milliseconds", async ({ api }) => {
  const clock = await readClock(api)
  assert.match(clock.now, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  assertAhead(clock, 0)
})

Clock('An advance moves the clock forward by that much, and POST answers the clock as GET reads it', async ({ api }) => {
  assertAhead(await advance(api, DAY_MS), DAY_MS)
  assertAhead(await advance(api, 0), DAY_MS)
  assertAhead(await advance(api, 1), DAY_MS + 1)
  assertAhead(await readClock(api), DAY_MS + 1)
})

Clock(
  'A clock never goes back: a negative advance is refused 400 invalid_body naming advance, and the clock is unchanged',
  async ({ api }) => {
    await advance(api, DAY_MS)
    const refused = await api.request('POST', '/v1/sandbox/clock', { body: { advance: -1000 } })
    assert.match(assertError(refused, 400, 'invalid_body'), /^invalid clock advance: advance: must be an integer from 0 to \d+/)
    assertAhead(await readClock(api), DAY_MS)
  },
)

Clock(
  'A body that is not one whole number of milliseconds to advance is refused 400, naming the field, and the clock is unchanged',
  async ({ api }) => {
    const cases: ReadonlyArray<readonly [body: unknown, code: string, message: string]> = [
      [{ advance: 1.5 }, 'invalid_body', 'advance: must be an integer from 0 to'],
      [{ advance: '1000' }, 'invalid_body', 'advance: must be an integer'],
      [{ advance: null }, 'invalid_body', 'advance: must be an integer'],
      [{ advance: MAX_ADVANCE_MS + 1 }, 'invalid_body', `advance: must be an integer from 0 to ${MAX_ADVANCE_MS}`],
      [{}, 'invalid_body', 'advance: is required'],
      [{ advance: 1000, unit: 'ms' }, 'invalid_body', 'unit: is not a field of a clock advance'],
      [{ advanced: 1000 }, 'invalid_body', 'advanced: is not a field of a clock advance'],
      [[1000], 'invalid_body', 'the body must be a JSON object'],
      [1000, 'invalid_body', 'the body must be a JSON object'],
      ['{"advance":0.99999999999999999}', 'invalid_body', 'advance: must be an integer'],
      ['{"advance":1000', 'invalid_json', 'the body is not valid JSON'],
      ['', 'invalid_json', 'the request body is empty'],
    ]
    for (const [body, code, message] of cases) {
      const headers = typeof body === 'string' ? { 'content-type': 'application/json' } : {}
      const refused = await api.request('POST', '/v1/sandbox/clock', { body, headers })
      assert.match(assertError(refused, 400, code), message, JSON.stringify(body))
    }
    // A number that denotes an integer exactly is one, however it is written.
    assertAhead(
      clockOf(await api.request('POST', '/v1/sandbox/clock', { body: '{"advance":1e3}', headers: { 'content-type': 'application/json' } })),
      1000,
    )
  },
)

Clock(
  `A clock runs at most ${MAX_AHEAD_MS / DAY_MS} days ahead of real time: an advance beyond is refused, and a reset starts again`,
  async ({ api }) => {
    for (let advanced = 0; advanced < MAX_AHEAD_MS; advanced += MAX_ADVANCE_MS) await advance(api, MAX_ADVANCE_MS)
    const refused = await api.request('POST', '/v1/sandbox/clock', { body: { advance: 1 } })
    assert.match(assertError(refused, 400, 'invalid_body'), `advance: would put the clock more than ${MAX_AHEAD_MS} ms ahead of real time`)
    assertAhead(await readClock(api), MAX_AHEAD_MS)
    assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
    assertAhead(await advance(api, 1), 1)
  },
)

Clock('The contract states the bounds of an advance and of a clock that the service holds to', async ({ api }) => {
  type Schema = { properties: Record<string, { maximum?: number }> }
  const schemas = (api.contract as { components: { schemas: Record<string, Schema> } }).components.schemas
  assert.is(schemas.SandboxClockAdvance?.properties.advance?.maximum, MAX_ADVANCE_MS)
  assert.is(schemas.SandboxClock?.properties.advancedMs?.maximum, MAX_AHEAD_MS)
})

Clock("A reset puts the sandbox's clock back to real time", async ({ api }) => {
  await advance(api, DAY_MS)
  assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
  assertAhead(await readClock(api), 0)
})

Clock("Advancing one sandbox's clock, or resetting it, leaves every other sandbox's clock untouched", async ({ api }) => {
  await advance(api, DAY_MS, OTHER_KEY)
  await advance(api, 2 * DAY_MS)
  assertAhead(await readClock(api, OTHER_KEY), DAY_MS)
  assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
  assertAhead(await readClock(api, OTHER_KEY), DAY_MS)
})

Clock('Without a valid key the clock is neither read nor moved: 401', async ({ api }) => {
  assertError(await api.request('GET', '/v1/sandbox/clock', { key: false }), 401, 'unauthorized')
  assertError(
    await api.request('POST', '/v1/sandbox/clock', { key: 'wrong-key-0123456789', body: { advance: DAY_MS } }),
    401,
    'unauthorized',
  )
  assertAhead(await readClock(api), 0)
})

Clock(
  "A made sandbox's clock is its own, and advancing it never ends the sandbox; once it ended, its clock is refused 401",
  async ({ api }) => {
    const { key } = (await api.request('POST', '/v1/sandboxes')).body as { key: string }
    assertAhead(await advance(api, MAX_ADVANCE_MS, key), MAX_ADVANCE_MS)
    assert.is((await api.request('GET', '/v1/pets', { key })).status, 200)
    assertAhead(await readClock(api), 0)
    assert.is((await api.request('DELETE', '/v1/sandbox', { key })).status, 204)
    assertError(await api.request('GET', '/v1/sandbox/clock', { key }), 401, 'unauthorized')
    assertError(await api.request('POST', '/v1/sandbox/clock', { key, body: { advance: 0 } }), 401, 'unauthorized')
  },
)

Clock('Every method but GET, HEAD and POST on /v1/sandbox/clock is 405 with Allow', async ({ api }) => {
  assert.is((await api.request('HEAD', '/v1/sandbox/clock')).status, 200)
  const options = await api.request('OPTIONS', '/v1/sandbox/clock')
  assert.is(options.status, 204)
  assert.is(options.headers.get('allow'), 'GET, HEAD, POST')
  for (const method of ['PUT', 'DELETE', 'PATCH']) {
    const refused = await api.request(method, '/v1/sandbox/clock', { body: { advance: 0 } })
    assertError(refused, 405, 'method_not_allowed')
    assert.is(refused.headers.get('allow'), 'GET, HEAD, POST', method)
  }
})

Clock("The journal dates a request by its sandbox's clock, and keeps no request to the clock itself", async ({ api }) => {
  await advance(api, DAY_MS)
  await api.request('GET', '/v1/pets')
  await api.request('GET', '/v1/pets', { key: OTHER_KEY })
  const [mine] = (await api.request('GET', '/v1/sandbox/requests')).body as ReadonlyArray<{ time: string; path: string }>
  const [theirs] = (await api.request('GET', '/v1/sandbox/requests', { key: OTHER_KEY })).body as ReadonlyArray<{ time: string }>
  assert.is(mine?.path, '/v1/pets')
  assertAhead({ now: mine?.time ?? '', advancedMs: DAY_MS }, DAY_MS)
  assertAhead({ now: theirs?.time ?? '', advancedMs: 0 }, 0)
  assert.is(((await api.request('GET', '/v1/sandbox/requests/count')).body as { count: number }).count, 1)
})

Clock.run()

/**
 * The sandboxes of a memory store whose first `count` creates each wait at a gate of their own, in
 * the order they reach the store; later creates pass at once.
 */
const gatedCreates = (count: number) => {
  const store = memoryStore(SEED)
  const gates = Array.from({ length: count }, gate)
  let reached = 0
  const space = withSandboxPets(store.dataSets, (pets) => ({
    ...pets,
    insert: (draft, createId) => {
      const held = gates[reached]
      reached += 1
      return pipe(
        TE.fromTask(held?.pass ?? (async () => undefined)),
        TE.flatMap(() => pets.insert(draft, createId)),
      )
    },
  }))
  return { space, gates }
}

const held = gatedCreates(2)
const Stalled = apiSuite("Per-key sandboxes: an Idempotency-Key's lease on the sandbox's clock", { sandboxes: held.space })

Stalled(
  "Advancing a sandbox's clock by 31 s lets a stalled claim be taken over at once, the stalled create then answers its key's pet, and another sandbox's claims stay untouched",
  async ({ api }) => {
    const [gateA, gateB] = held.gates
    if (gateA === undefined || gateB === undefined) throw new Error('two gates')
    const headers = { 'idempotency-key': 'stalled-create' }
    const body = aNewPet({ name: 'Stalled' })
    const stalledA = api.request('POST', '/v1/pets', { body, headers })
    // Should the test fail before awaiting them, closing the server must not crash the whole run.
    stalledA.catch(() => undefined)
    await gateA.atGate
    const stalledB = api.request('POST', '/v1/pets', { body, headers, key: OTHER_KEY })
    stalledB.catch(() => undefined)
    await gateB.atGate
    assertError(await api.request('POST', '/v1/pets', { body, headers }), 409, 'idempotency_key_in_use')
    assertError(await api.request('POST', '/v1/pets', { body, headers, key: OTHER_KEY }), 409, 'idempotency_key_in_use')

    await advance(api, 31_000)
    const takenOver = await api.request('POST', '/v1/pets', { body, headers })
    assert.is(takenOver.status, 201, takenOver.text)
    assert.equal(takenOver.body, { id: 6, ...body })
    assertError(await api.request('POST', '/v1/pets', { body, headers, key: OTHER_KEY }), 409, 'idempotency_key_in_use')

    // The stalled insert, under the same create id, finds the pet the takeover stored: never a second
    // pet, and its client is answered that pet, as the key answers it.
    gateA.open()
    const late = await stalledA
    assert.is(late.status, 201, late.text)
    assert.equal(late.body, { id: 6, ...body })
    assert.equal(idsOf((await api.request('GET', '/v1/pets')).body), [...SEEDED_IDS, 6])
    gateB.open()
    assert.is((await stalledB).status, 201)
    assert.equal(idsOf((await api.request('GET', '/v1/pets', { key: OTHER_KEY })).body), [...SEEDED_IDS, 6])
  },
)

Stalled.run()

/** A memory store on a clock that stands still 30 s into a window: only an advance ends it, never a busy machine. */
const standingStore = () => memoryStore(SEED, { clock: { now: () => 30_000 } })

const RateLimited = apiSuite("Per-key sandboxes, PETSTORE_RATE_LIMIT=3: windows on the sandbox's clock", () => {
  const store = standingStore()
  return { sandboxes: store.dataSets, rateLimit: { limit: 3, counter: store.rateLimits } }
})

RateLimited(
  "A rate-limit window ends when the sandbox's clock passes it, and no other sandbox's; the clock is counted in the sandbox quota",
  async ({ api }) => {
    for (const key of [undefined, OTHER_KEY]) {
      for (let used = 0; used < 3; used += 1)
        assert.is((await api.request('GET', '/v1/pets', key === undefined ? {} : { key })).status, 200)
      assertError(await api.request('GET', '/v1/pets', key === undefined ? {} : { key }), 429, 'rate_limited')
    }
    const advanced = await api.request('POST', '/v1/sandbox/clock', { body: { advance: 60_000 } })
    assert.is(advanced.status, 200)
    assert.is(advanced.headers.get('ratelimit-policy'), '"sandbox";q=600;w=60')
    assert.is(advanced.headers.get('ratelimit'), '"sandbox";r=599;t=30')
    assert.is((await api.request('GET', '/v1/sandbox/clock')).headers.get('ratelimit'), '"sandbox";r=598;t=30')
    const answered = await api.request('GET', '/v1/pets')
    assert.is(answered.status, 200)
    assert.match(answered.headers.get('ratelimit') ?? '', /^"default";r=2;t=\d+$/)
    assertError(await api.request('GET', '/v1/pets', { key: OTHER_KEY }), 429, 'rate_limited')
  },
)

RateLimited.run()
