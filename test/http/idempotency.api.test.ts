import * as assert from 'uvu/assert'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { OTHER_KEY } from '../support/start-api.js'

const Idempotency = apiSuite('POST /v1/pets with Idempotency-Key')

Idempotency(
  'When a create is retried with the same key and body, then the original 201, pet and Location come back and one pet is stored',
  async ({ api }) => {
    const headers = { 'idempotency-key': 'retry-0001' }
    const first = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Once' }), headers })
    const retry = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Once' }), headers })
    assert.is(first.status, 201)
    assert.is(retry.status, 201)
    assert.equal(retry.body, first.body)
    assert.is(retry.headers.get('location'), first.headers.get('location'))
    assert.is(((await api.request('GET', '/v1/pets')).body as unknown[]).length, 1)
  },
)

Idempotency('When the retried body differs only in key order and whitespace, then it counts as the same body', async ({ api }) => {
  const headers = { 'idempotency-key': 'retry-0002', 'content-type': 'application/json' }
  const first = await api.request('POST', '/v1/pets', { body: '{"name":"Rex","categoryId":1}', headers })
  const retry = await api.request('POST', '/v1/pets', { body: '{ "categoryId" : 1,\n  "name" : "Rex" }', headers })
  assert.equal(retry.body, first.body)
  assert.is(((await api.request('GET', '/v1/pets')).body as unknown[]).length, 1)
})

Idempotency('When the same key comes with a different body, then 422 idempotency_key_mismatch and nothing is created', async ({ api }) => {
  const headers = { 'idempotency-key': 'retry-0003' }
  await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'First' }), headers })
  assertError(await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Second' }), headers }), 422, 'idempotency_key_mismatch')
  assert.is(((await api.request('GET', '/v1/pets')).body as unknown[]).length, 1)
})

Idempotency("When another client sends the same key, then it gets its own pet, never the first client's answer", async ({ api }) => {
  const headers = { 'idempotency-key': 'shared-key' }
  const mine = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Mine' }), headers })
  const theirs = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Theirs' }), headers, key: OTHER_KEY })
  assert.is(theirs.status, 201)
  assert.is.not((theirs.body as { id: number }).id, (mine.body as { id: number }).id)
  assert.is((theirs.body as { name: string }).name, 'Theirs')
})

Idempotency('When concurrent requests race on one key, then one pet is created and the others get its answer or 409', async ({ api }) => {
  const headers = { 'idempotency-key': 'race-0001' }
  const responses = await Promise.all(Array.from({ length: 10 }, () => api.request('POST', '/v1/pets', { body: aNewPet(), headers })))
  assert.ok(
    responses.every((response) => response.status === 201 || response.status === 409),
    responses.map((response) => response.status).join(),
  )
  for (const response of responses.filter((r) => r.status === 409)) assertError(response, 409, 'idempotency_key_in_use')
  assert.is(((await api.request('GET', '/v1/pets')).body as unknown[]).length, 1)
})

Idempotency('When the key is empty or too long, then 400 naming Idempotency-Key', async ({ api }) => {
  for (const key of ['', 'x'.repeat(256), 'has space']) {
    const message = assertError(
      await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { 'idempotency-key': key } }),
      400,
      'invalid_parameter',
    )
    assert.match(message, 'Idempotency-Key')
  }
})

Idempotency('When the key is a quoted Structured Field string, then it is the same key as the bare token', async ({ api }) => {
  const first = await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { 'idempotency-key': '"abc-123"' } })
  const retry = await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { 'idempotency-key': 'abc-123' } })
  assert.equal(retry.body, first.body)
})

Idempotency(
  'When the body is invalid, then 400 invalid_body whatever holds the key (a create in progress or done), never 409 or 422',
  async ({ api }) => {
    const headers = { 'idempotency-key': 'held-0001' }
    // An invalid body is answered from the rules alone: the key's state does not matter, nothing is claimed.
    const [valid, invalid] = await Promise.all([
      api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Valid' }), headers }),
      api.request('POST', '/v1/pets', { body: aNewPet({ name: '' }), headers }),
    ])
    assert.is(valid.status, 201)
    assertError(invalid, 400, 'invalid_body')
    assertError(await api.request('POST', '/v1/pets', { body: aNewPet({ categoryId: 'x' }), headers }), 400, 'invalid_body')
  },
)

Idempotency('When the first attempt was invalid, then the key is not used up', async ({ api }) => {
  const headers = { 'idempotency-key': 'fix-and-retry' }
  assertError(await api.request('POST', '/v1/pets', { body: aNewPet({ name: '' }), headers }), 400, 'invalid_body')
  assert.is((await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Fixed' }), headers })).status, 201)
})

Idempotency('Requests without the header behave as before: each creates a pet', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  assert.is(((await api.request('GET', '/v1/pets')).body as unknown[]).length, 2)
})

Idempotency.run()
