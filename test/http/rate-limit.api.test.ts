import * as assert from 'uvu/assert'
import { apiSuite, assertError } from '../support/api-suite.js'
import { OTHER_KEY } from '../support/start-api.js'

const RateLimited = apiSuite('Rate limits (PETSTORE_RATE_LIMIT=3)', { rateLimit: 3 })

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
