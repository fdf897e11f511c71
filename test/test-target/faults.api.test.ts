import { request as httpRequest } from 'node:http'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { capturedLogger } from '../support/captured-logger.js'
import { contractChecker } from '../support/contract-checker.js'
import { aNewPet, aPet } from '../support/pet-builder.js'
import { type ApiResponse, type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'
import { oneWindowCounter } from '../support/one-window-counter.js'

const prefer = (value: string): { headers: Record<string, string> } => ({ headers: { prefer: value } })

/** Milliseconds `call` took. Timers count whole milliseconds, so a delay may end up to 1 ms early. */
const timed = async <A>(call: () => Promise<A>): Promise<{ result: A; elapsedMs: number }> => {
  const started = performance.now()
  const result = await call()
  return { result, elapsedMs: performance.now() - started + 1 }
}

/** The whole test target, over a store of its own. */
const testTargetOn = () => ({ sandboxes: memoryStore().dataSets })

const assertNothingApplied = (response: ApiResponse): void => assert.is(response.headers.get('preference-applied'), null)

const Off = apiSuite('PETSTORE_TEST_TARGET=off (the default): no faults')

Off('Prefer changes nothing and no Preference-Applied is sent', async ({ api }) => {
  const created = await api.request('POST', '/v1/pets', { body: aNewPet(), ...prefer('fault=503, delay=10000') })
  assert.is(created.status, 201)
  assertNothingApplied(created)
  for (const path of ['/v1/pets', '/v1/pets/1']) {
    for (const fault of ['429', '500', '503']) {
      const response = await api.request('GET', path, prefer(`fault=${fault}`))
      assert.is(response.status, 200)
      assertNothingApplied(response)
    }
  }
})

Off.run()

const On = apiSuite('Test-target faults: Prefer: fault', testTargetOn)

On('fault=503 answers 503 service_unavailable with Retry-After on each pet operation', async ({ api }) => {
  for (const [method, path] of [
    ['GET', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['GET', '/v1/pets/1'],
  ] as const) {
    const response = await api.request(method, path, { ...prefer('fault=503'), ...(method === 'POST' ? { body: aNewPet() } : {}) })
    const message = assertError(response, 503, 'service_unavailable')
    assert.match(message, "forced by 'Prefer: fault=503'")
    assert.is(response.headers.get('retry-after'), '5')
    assert.is(response.headers.get('preference-applied'), 'fault=503')
  }
})

On('fault=500 answers 500 internal_error on each pet operation', async ({ api }) => {
  for (const [method, path] of [
    ['GET', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['GET', '/v1/pets/1'],
  ] as const) {
    const response = await api.request(method, path, { ...prefer('fault=500'), ...(method === 'POST' ? { body: aNewPet() } : {}) })
    assert.match(assertError(response, 500, 'internal_error'), "forced by 'Prefer: fault=500'")
    assert.is(response.headers.get('preference-applied'), 'fault=500')
  }
})

On('fault=429 answers 429 rate_limited with Retry-After: 1 and a RateLimit saying nothing remains', async ({ api }) => {
  for (const [method, path] of [
    ['GET', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['GET', '/v1/pets/1'],
  ] as const) {
    const response = await api.request(method, path, { ...prefer('fault=429'), ...(method === 'POST' ? { body: aNewPet() } : {}) })
    assert.match(assertError(response, 429, 'rate_limited'), "forced by 'Prefer: fault=429'")
    assert.is(response.headers.get('retry-after'), '1')
    assert.is(response.headers.get('ratelimit'), '"default";r=0;t=1')
    // No limiter runs, so there is no quota to announce.
    assert.is(response.headers.get('ratelimit-policy'), null)
    assert.is(response.headers.get('preference-applied'), 'fault=429')
  }
})

On('HEAD of listPets and getPet answers the forced status without a body', async ({ api }) => {
  for (const path of ['/v1/pets', '/v1/pets/1']) {
    const response = await api.request('HEAD', path, prefer('fault=503'))
    assert.is(response.status, 503)
    assert.is(response.text, '')
    assert.is(response.headers.get('retry-after'), '5')
    assert.is(response.headers.get('preference-applied'), 'fault=503')
  }
})

On('A request without a valid key is still 401, whatever it prefers', async ({ api }) => {
  for (const key of [false, 'wrong-key-0123456789abcdef'] as const) {
    const response = await api.request('GET', '/v1/pets', { key, ...prefer('fault=503') })
    assertError(response, 401, 'unauthorized')
    assertNothingApplied(response)
  }
})

On('A forced failure on createPet creates nothing and claims no Idempotency-Key', async ({ api }) => {
  const headers = { 'idempotency-key': 'forced-0001' }
  for (const fault of ['429', '500', '503']) {
    const forced = await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { ...headers, prefer: `fault=${fault}` } })
    assert.is(forced.status, Number(fault))
  }
  assert.equal((await api.request('GET', '/v1/pets')).body, [])
  const created = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex' }), headers })
  assert.is(created.status, 201)
  assert.equal(created.body, aPet({ id: 1, name: 'Rex' }))
  const replayed = await api.request('POST', '/v1/pets', { body: aNewPet(), headers })
  assert.equal([replayed.status, replayed.body], [201, created.body])
  assert.equal((await api.request('GET', '/v1/pets')).body, [created.body])
})

On('A forced failure is answered before the body is read', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', {
    body: '{"name": not json',
    headers: { 'content-type': 'text/plain', prefer: 'fault=503' },
  })
  assertError(response, 503, 'service_unavailable')
})

On('Only the pet operations can be forced', async ({ api }) => {
  const open = [
    ['/v1/openapi.json', 200],
    ['/healthz', 200],
    ['/v1/nowhere', 404],
  ] as const
  for (const [path, status] of open) {
    const response = await api.request('GET', path, prefer('fault=503, delay=0'))
    assert.is(response.status, status, path)
    assertNothingApplied(response)
  }
  const refused = await api.request('PUT', '/v1/pets', prefer('fault=503'))
  assertError(refused, 405, 'method_not_allowed')
  assertNothingApplied(refused)
})

On('Names are case-insensitive, values may be quoted, parameters are ignored', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets', prefer('respond-async, FAULT="500"; reason=test'))
  assertError(response, 500, 'internal_error')
  assert.is(response.headers.get('preference-applied'), 'fault=500')
})

On('A fault not understood is ignored and not listed; the first of a repeated preference counts', async ({ api }) => {
  for (const value of ['fault=404', 'fault=abc', 'fault', 'fault=200', 'failure=503', 'return=minimal', 'fault=404, fault=503']) {
    const response = await api.request('GET', '/v1/pets', prefer(value))
    assert.is(response.status, 200, value)
    assertNothingApplied(response)
  }
  assert.is((await api.request('GET', '/v1/pets', prefer('fault=500, fault=503'))).status, 500)
})

On('A Prefer with a run of 16,000 spaces in an element is read at once: that element skipped, the others applied', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets', prefer(`a${' '.repeat(16_000)}=, fault=503`))
  assertError(response, 503, 'service_unavailable')
  assert.is(response.headers.get('preference-applied'), 'fault=503')
})

On('Several Prefer headers are read as one list', async ({ api }) => {
  // fetch joins repeated headers into one line; node:http sends each on a line of its own.
  const response = await new Promise<ApiResponse>((resolve, reject) => {
    const url = new URL(`${api.baseUrl}/v1/pets`)
    const pending = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { authorization: `Bearer ${TEST_KEY}`, prefer: ['delay=1', 'fault=503'] },
      },
      (incoming) => {
        let text = ''
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
        incoming.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value)
          resolve({ status: incoming.statusCode ?? 0, headers, text, body: JSON.parse(text) as unknown })
        })
      },
    )
    pending.on('error', reject)
    pending.end()
  })
  assert.equal((await contractChecker(api.contract))('GET', '/v1/pets', response), [])
  assertError(response, 503, 'service_unavailable')
  assert.is(response.headers.get('preference-applied'), 'delay=1, fault=503')
})

On.run()

const Delays = apiSuite('Test-target faults: Prefer: delay', testTargetOn)

Delays('delay=<ms> answers normally after at least that long, and says so', async ({ api }) => {
  const { result: listed, elapsedMs } = await timed(() => api.request('GET', '/v1/pets', prefer('delay=300')))
  assert.is(listed.status, 200)
  assert.is(listed.headers.get('preference-applied'), 'delay=300')
  assert.ok(elapsedMs >= 300, `${elapsedMs} ms`)
  const created = await api.request('POST', '/v1/pets', { body: aNewPet(), ...prefer('delay=0') })
  assert.is(created.status, 201)
  assert.is(created.headers.get('preference-applied'), 'delay=0')
  const read = await api.request('HEAD', '/v1/pets/1', prefer('delay=1'))
  assert.equal([read.status, read.headers.get('preference-applied')], [200, 'delay=1'])
})

Delays('delay out of range or not an integer is ignored and not listed', async ({ api }) => {
  for (const value of ['delay=10001', 'delay=-1', 'delay=1.5', 'delay=abc', 'delay=010', 'delay', 'delay=10001, delay=5']) {
    const response = await api.request('GET', '/v1/pets', prefer(value))
    assert.is(response.status, 200, value)
    assertNothingApplied(response)
  }
})

Delays('delay with fault: the failure comes after the delay, and both are listed, delay first', async ({ api }) => {
  const { result, elapsedMs } = await timed(() => api.request('GET', '/v1/pets', prefer('fault=503, delay=200')))
  assertError(result, 503, 'service_unavailable')
  assert.is(result.headers.get('preference-applied'), 'delay=200, fault=503')
  assert.ok(elapsedMs >= 200, `${elapsedMs} ms`)
})

Delays.run()

const Shutdown = suite('Test-target faults: shutdown')

const settles = <A>(promise: Promise<A>): { readonly settled: () => boolean } => {
  let settled = false
  const done = (): void => void (settled = true)
  promise.then(done, done)
  return { settled: () => settled }
}

Shutdown('A delayed request is answered at once when shutdown begins, without delay in Preference-Applied', async () => {
  const shutdown = new AbortController()
  const api: RunningApi = await startApi({ ...testTargetOn(), shutdown: shutdown.signal })
  try {
    // The service says 100 Continue as it takes a request, which reaches its delay in that same
    // turn: once both were said, both requests are in their delays.
    let continued = 0
    let bothContinued = (): void => undefined
    const bothHeld = new Promise<void>((resolve) => (bothContinued = resolve))
    const onContinue = (): void => {
      continued += 1
      if (continued === 2) bothContinued()
    }
    const pending = api.request('GET', '/v1/pets', { ...prefer('delay=10000'), onContinue })
    const faulted = api.request('GET', '/v1/pets', { ...prefer('delay=10000, fault=503'), onContinue })
    const watch = settles(Promise.race([pending, faulted]))
    await bothHeld
    // The upper bound of 10000 ms is understood: both requests are still held.
    assert.is(watch.settled(), false)
    shutdown.abort()
    const answered = await pending
    assert.is(answered.status, 200)
    assertNothingApplied(answered)
    const failed = await faulted
    assertError(failed, 503, 'service_unavailable')
    assert.is(failed.headers.get('preference-applied'), 'fault=503')
    // Once shutdown has begun, no delay starts.
    const later = await api.request('GET', '/v1/pets', prefer('delay=10000'))
    assert.is(later.status, 200)
    assertNothingApplied(later)
  } finally {
    await api.close()
  }
})

Shutdown.run()

const Limited = apiSuite('Test-target faults with PETSTORE_RATE_LIMIT=2', () => ({
  ...testTargetOn(),
  rateLimit: { limit: 2, counter: oneWindowCounter() },
}))

Limited('The real rate limit runs first: forced requests count, and over the limit the real 429 wins', async ({ api }) => {
  const forced = await api.request('GET', '/v1/pets', prefer('fault=503'))
  assertError(forced, 503, 'service_unavailable')
  assert.match(forced.headers.get('ratelimit') ?? '', /^"default";r=1;t=\d+$/)
  const forced429 = await api.request('GET', '/v1/pets', prefer('fault=429'))
  assertError(forced429, 429, 'rate_limited')
  assert.is(forced429.headers.get('ratelimit'), '"default";r=0;t=1')
  assert.is(forced429.headers.get('ratelimit-policy'), '"default";q=2;w=60')
  const limited = await api.request('GET', '/v1/pets', prefer('fault=500'))
  assertError(limited, 429, 'rate_limited')
  assertNothingApplied(limited)
  assert.not.match(limited.text, 'forced')
})

Limited.run()

const Observed = suite('Test-target faults: logs and metrics')

Observed('The request log line marks a forced failure as forced, under the route pattern', async () => {
  const log = capturedLogger()
  const api = await startApi({ ...testTargetOn(), logger: log.logger })
  try {
    await api.request('POST', '/v1/pets', { body: aNewPet(), ...prefer('fault=503') })
    await api.request('GET', '/v1/pets', prefer('delay=0'))
  } finally {
    await api.close()
  }
  const [forced, delayed] = log.lines().filter((line) => line.msg === 'request')
  assert.equal(
    {
      route: forced?.route,
      status: forced?.status,
      failure: forced?.failure,
      forced: forced?.forced,
      preferenceApplied: forced?.preferenceApplied,
    },
    { route: '/v1/pets', status: 503, failure: 'ForcedFailure', forced: true, preferenceApplied: 'fault=503' },
  )
  assert.equal(
    { status: delayed?.status, failure: delayed?.failure, forced: delayed?.forced, preferenceApplied: delayed?.preferenceApplied },
    { status: 200, failure: undefined, forced: undefined, preferenceApplied: 'delay=0' },
  )
})

Observed('A forced 503 is counted by route and status in /metrics, but not as a store error', async () => {
  const api = await startApi({ ...testTargetOn(), metrics: true })
  try {
    await api.request('GET', '/v1/pets', prefer('fault=503'))
    const metrics = (await api.request('GET', '/metrics', { key: false })).text
    assert.match(metrics, 'petstore_http_requests_total{method="GET",route="/v1/pets",status="503"} 1')
    assert.not.match(metrics, 'petstore_store_errors_total{')
  } finally {
    await api.close()
  }
})

Observed.run()
