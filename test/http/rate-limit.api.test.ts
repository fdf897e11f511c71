import * as TE from 'fp-ts/TaskEither'
import * as assert from 'uvu/assert'
import type { RateLimitCounter } from '../../src/store/rate-limit-counter.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { capturedLogger } from '../support/captured-logger.js'
import { OTHER_KEY, startApi } from '../support/start-api.js'
import { oneWindowCounter } from '../support/one-window-counter.js'

const RateLimited = apiSuite('Rate limits (PETSTORE_RATE_LIMIT=3)', () => ({ rateLimit: { limit: 3, counter: oneWindowCounter() } }))

RateLimited(
  'Every response subject to the limit carries RateLimit-Policy and RateLimit; over the limit, 429 rate_limited with Retry-After',
  async ({ api }) => {
    for (let used = 1; used <= 3; used += 1) {
      const response = await api.request('GET', '/v1/pets')
      assert.is(response.status, 200)
      assert.is(response.headers.get('ratelimit-policy'), '"default";q=3;w=60')
      assert.match(response.headers.get('ratelimit') ?? '', new RegExp(`^"default";r=${3 - used};t=\\d+$`))
    }
    const limited = await api.request('GET', '/v1/pets')
    assertError(limited, 429, 'rate_limited')
    const retryAfter = Number(limited.headers.get('retry-after'))
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter))
    assert.match(limited.headers.get('ratelimit') ?? '', /^"default";r=0;t=\d+$/)
  },
)

RateLimited('Limits are per API key: one client over its limit does not stop another', async ({ api }) => {
  for (let used = 0; used < 4; used += 1) await api.request('GET', '/v1/pets')
  assert.is((await api.request('GET', '/v1/pets', { key: OTHER_KEY })).status, 200)
})

RateLimited('Requests with a missing or wrong key are answered 401 and cost a real client nothing', async ({ api }) => {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    assert.is((await api.request('GET', '/v1/pets', { key: 'wrong-key-0123456789abcdef' })).status, 401)
    assert.is((await api.request('GET', '/v1/pets', { key: false })).status, 401)
  }
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
})

RateLimited('Instances that share one counter share one limit: the counter decides, not the instance', async () => {
  // Two instances of the service on one shared counter, as on one MongoDB store.
  const counter = oneWindowCounter()
  const [first, second] = await Promise.all([
    startApi({ rateLimit: { limit: 3, counter } }),
    startApi({ rateLimit: { limit: 3, counter } }),
  ])
  try {
    assert.is((await first.request('GET', '/v1/pets')).status, 200)
    assert.is((await second.request('GET', '/v1/pets')).status, 200)
    assert.is((await first.request('GET', '/v1/pets')).status, 200)
    assertError(await second.request('GET', '/v1/pets'), 429, 'rate_limited')
    assertError(await first.request('GET', '/v1/pets'), 429, 'rate_limited')
  } finally {
    await Promise.all([first.close(), second.close()])
  }
})

RateLimited('When the counter fails, requests go through uncounted, without RateLimit, and the failure is logged', async () => {
  const log = capturedLogger()
  const down: RateLimitCounter = { hit: () => TE.left({ _tag: 'StoreUnavailable', detail: 'count request for rate limit: timeout' }) }
  const refused: RateLimitCounter = { hit: () => TE.left({ _tag: 'StoreFailed', detail: 'count request for rate limit: not authorized' }) }
  for (const counter of [down, refused]) {
    const api = await startApi({ logger: log.logger, rateLimit: { limit: 1, counter } })
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await api.request('GET', '/v1/pets')
        assert.is(response.status, 200)
        assert.is(response.headers.get('ratelimit-policy'), '"default";q=1;w=60')
        assert.is(response.headers.get('ratelimit'), null)
      }
    } finally {
      await api.close()
    }
  }
  const notCounted = log
    .lines()
    .filter((line) => line.msg === 'rate limit not applied: the request could not be counted, so it goes through')
  assert.equal(
    notCounted.map((line) => [line.level, line.detail]),
    [
      ...Array.from({ length: 3 }, () => [40, 'count request for rate limit: timeout']),
      ...Array.from({ length: 3 }, () => [50, 'count request for rate limit: not authorized']),
    ],
  )
  assert.ok(notCounted.every((line) => typeof line.requestId === 'string' && typeof line.keyId === 'string'))
})

RateLimited.run()

const Unlimited = apiSuite('Rate limits off (the default)')

Unlimited('Without PETSTORE_RATE_LIMIT, no request is limited and no RateLimit header is sent', async ({ api }) => {
  for (let index = 0; index < 5; index += 1) {
    const response = await api.request('GET', '/v1/pets')
    assert.is(response.status, 200)
    assert.is(response.headers.get('ratelimit'), null)
  }
})

Unlimited.run()
