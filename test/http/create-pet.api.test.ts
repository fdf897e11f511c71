import { gzipSync } from 'node:zlib'
import * as assert from 'uvu/assert'
import { TEST_KEY } from '../support/start-api.js'
import { aNewPet, aPet } from '../support/pet-builder.js'
import { apiSuite, assertError } from '../support/api-suite.js'

const CreatePet = apiSuite('POST /v1/pets')

CreatePet('When the request is valid, then 201 returns the Pet with a service-assigned id and its Location', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex', categoryId: 7, status: 'pending' }) })
  assert.is(response.status, 201)
  assert.equal(response.body, aPet({ id: 1, name: 'Rex', categoryId: 7, status: 'pending' }))
  assert.is(response.headers.get('location'), '/v1/pets/1')
  assert.is(response.headers.get('cache-control'), 'no-store')
  const fetched = await api.request('GET', '/v1/pets/1')
  assert.equal(fetched.body, response.body)
})

CreatePet('When status is omitted, then the pet is stored and returned as available', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', { body: { name: 'Rex', categoryId: 7 } })
  assert.equal(response.body, aPet({ id: 1, name: 'Rex', categoryId: 7, status: 'available' }))
  assert.equal((await api.request('GET', '/v1/pets/1')).body, response.body)
})

CreatePet('When the client sends an id or unknown fields, then they are ignored and not echoed', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Rex', id: 42, owner: 'me' }) })
  assert.equal(response.body, aPet({ id: 1, name: 'Rex' }))
})

CreatePet('When the body lacks name or categoryId, then 400 names the missing field', async ({ api }) => {
  assert.match(assertError(await api.request('POST', '/v1/pets', { body: { categoryId: 1 } }), 400, 'invalid_body'), 'name: is required')
  assert.match(
    assertError(await api.request('POST', '/v1/pets', { body: { name: 'Rex' } }), 400, 'invalid_body'),
    'categoryId: is required',
  )
})

CreatePet('When a field has an invalid value, then 400 names the field and the reason', async ({ api }) => {
  const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
    [aNewPet({ status: 'lost' }), 'status: must be one of available, pending, sold'],
    [aNewPet({ name: '' }), 'name: must not be empty'],
    [aNewPet({ name: 'x'.repeat(201) }), 'name: must be at most 200 characters'],
    [aNewPet({ categoryId: '7' }), 'categoryId: must be an integer'],
    [aNewPet({ categoryId: 1.5 }), 'categoryId: must be an integer'],
  ]
  for (const [body, problem] of cases) {
    assert.match(assertError(await api.request('POST', '/v1/pets', { body }), 400, 'invalid_body'), problem)
  }
  assert.equal((await api.request('GET', '/v1/pets')).body, [])
})

CreatePet('When categoryId is beyond 2^53, then 400 rather than a silently rounded number', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', {
    body: '{"name":"Rex","categoryId":9007199254740993}',
    headers: { 'content-type': 'application/json' },
  })
  assert.match(assertError(response, 400, 'invalid_body'), 'categoryId')
})

CreatePet(
  'When a number for categoryId does not denote an integer exactly, then 400 naming the field, never a rounded integer',
  async ({ api }) => {
    for (const literal of ['0.99999999999999999', '1e-400', '9007199254740990.9', '-0.99999999999999999', '1.00000000000000001e1']) {
      const response = await api.request('POST', '/v1/pets', {
        body: `{"name":"Rex","categoryId":${literal}}`,
        headers: { 'content-type': 'application/json', 'idempotency-key': `number-${literal}` },
      })
      assert.match(assertError(response, 400, 'invalid_body'), 'categoryId: must be an integer', literal)
    }
    assert.equal((await api.request('GET', '/v1/pets')).body, [])
    for (const [literal, categoryId] of [
      ['1.0', 1],
      ['1e2', 100],
      ['-25E-1', -2.5],
      ['120e-1', 12],
    ] as const) {
      const response = await api.request('POST', '/v1/pets', {
        body: `{"name":"Rex","categoryId":${literal},"ignored":0.99999999999999999}`,
        headers: { 'content-type': 'application/json' },
      })
      if (Number.isInteger(categoryId)) assert.is((response.body as { categoryId: number }).categoryId, categoryId, literal)
      else assertError(response, 400, 'invalid_body')
    }
  },
)

CreatePet('When the name has a lone surrogate, then 400', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', {
    body: '{"name":"Rex\\ud800","categoryId":1}',
    headers: { 'content-type': 'application/json' },
  })
  assert.match(assertError(response, 400, 'invalid_body'), 'well-formed Unicode')
})

CreatePet('When the body has bytes that are not valid UTF-8, then 400 rather than a name silently changed', async ({ api }) => {
  const invalid = Buffer.concat([Buffer.from('{"name":"Re'), Buffer.from([0xff, 0xfe]), Buffer.from('x","categoryId":1}')])
  const response = await api.request('POST', '/v1/pets', { body: new Uint8Array(invalid), headers: { 'content-type': 'application/json' } })
  assert.match(assertError(response, 400, 'invalid_json'), 'not valid UTF-8')
  assert.equal((await api.request('GET', '/v1/pets')).body, [])
})

CreatePet('When the body holds U+FFFD, written as the character or as its escape alike, then 400 invalid_json', async ({ api }) => {
  for (const name of ['Rex\uFFFD', 'Rex\\ufffd', 'Rex\\uFFFD']) {
    const response = await api.request('POST', '/v1/pets', {
      body: `{"name":"${name}","categoryId":1}`,
      headers: { 'content-type': 'application/json' },
    })
    assert.match(assertError(response, 400, 'invalid_json'), 'holds U+FFFD', name)
  }
  // In a member name too, even one createPet ignores; an escaped backslash before `ufffd` is no escape of it.
  const ignored = await api.request('POST', '/v1/pets', {
    body: '{"name":"Rex","categoryId":1,"x\\ufffd":1}',
    headers: { 'content-type': 'application/json' },
  })
  assertError(ignored, 400, 'invalid_json')
  const backslash = await api.request('POST', '/v1/pets', {
    body: '{"name":"Rex\\\\ufffd","categoryId":1}',
    headers: { 'content-type': 'application/json' },
  })
  assert.is((backslash.body as { name: string }).name, 'Rex\\ufffd')
  assert.is(((await api.request('GET', '/v1/pets')).body as unknown[]).length, 1)
})

CreatePet('When the name is any well-formed Unicode, then it is stored and returned exactly', async ({ api }) => {
  const name = '  Zoë e\u0301 🐕‍🦺 "quoted" \\ </script>  '
  const created = await api.request('POST', '/v1/pets', { body: aNewPet({ name }) })
  assert.is((created.body as { name: string }).name, name)
  assert.is(((await api.request('GET', '/v1/pets/1')).body as { name: string }).name, name)
})

CreatePet('When the JSON is malformed, then 400 invalid_json', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', { body: '{"name": "Rex",', headers: { 'content-type': 'application/json' } })
  assert.match(assertError(response, 400, 'invalid_json'), 'not valid JSON')
})

CreatePet('When the body is empty, then 400 invalid_json', async ({ api }) => {
  assertError(await api.request('POST', '/v1/pets', { headers: { 'content-type': 'application/json' } }), 400, 'invalid_json')
  assertError(await api.request('POST', '/v1/pets'), 400, 'invalid_json')
})

CreatePet('When the body is empty but chunked, then 400 invalid_json', async ({ api }) => {
  const empty = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() })
  const response = await fetch(`${api.baseUrl}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: empty,
    duplex: 'half',
  })
  assert.is(response.status, 400)
  assert.is(((await response.json()) as { code: string }).code, 'invalid_json')
})

CreatePet('When the Content-Encoding is unsupported, then 415; when the compressed body is corrupt, then 400', async ({ api }) => {
  const body = JSON.stringify(aNewPet())
  assertError(
    await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json', 'content-encoding': 'compress' } }),
    415,
    'unsupported_media_type',
  )
  assertError(
    await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }),
    400,
    'invalid_json',
  )
})

CreatePet('When the body nests deeper than 64 levels, then 400 invalid_json, with or without an Idempotency-Key', async ({ api }) => {
  const deep = `{"name":"Rex","categoryId":1,"x":${'['.repeat(5000)}${']'.repeat(5000)}}`
  for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'application/json', 'idempotency-key': 'deep-1' }]) {
    assert.match(assertError(await api.request('POST', '/v1/pets', { body: deep, headers }), 400, 'invalid_json'), 'deeper than 64 levels')
  }
  const shallow = `{"name":"Rex","categoryId":1,"x":${'['.repeat(63)}${']'.repeat(63)}}`
  assert.is(
    (await api.request('POST', '/v1/pets', { body: shallow, headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-2' } }))
      .status,
    201,
  )
})

CreatePet('When a brotli body is corrupt, then 400 says it could not be decoded', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', {
    body: 'garbage',
    headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
  })
  assert.match(assertError(response, 400, 'invalid_json'), 'could not be decoded')
})

CreatePet('When the body is gzip-compressed JSON, then it is accepted', async ({ api }) => {
  const body = gzipSync(JSON.stringify(aNewPet()))
  assert.is(
    (await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })).status,
    201,
  )
})

CreatePet('A content coding is named in any case: GZIP, Gzip and gzip alike', async ({ api }) => {
  for (const coding of ['GZIP', 'Gzip', ' gzip ']) {
    const body = gzipSync(JSON.stringify(aNewPet({ name: coding })))
    const created = await api.request('POST', '/v1/pets', {
      body,
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
    })
    assert.is(created.status, 201, coding)
  }
})

CreatePet('When the body is empty, then 400 invalid_json saying to send a NewPet object', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', { body: '', headers: { 'content-type': 'application/json' } })
  assert.is(assertError(response, 400, 'invalid_json'), 'the request body is empty; send a JSON object (a NewPet)')
})

CreatePet('When the body is JSON but not an object, then 400 invalid_body', async ({ api }) => {
  for (const text of ['[]', '"Rex"', '42', 'null', 'true']) {
    const response = await api.request('POST', '/v1/pets', { body: text, headers: { 'content-type': 'application/json' } })
    assert.match(assertError(response, 400, 'invalid_body'), 'the body must be a JSON object')
  }
})

CreatePet('When the body carries a __proto__ key, then 400 and nothing is stored', async ({ api }) => {
  const response = await api.request('POST', '/v1/pets', {
    body: '{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}',
    headers: { 'content-type': 'application/json' },
  })
  assertError(response, 400, 'invalid_json')
  assert.equal((await api.request('GET', '/v1/pets')).body, [])
})

CreatePet('When the content type is not application/json, then 415 and the body is not parsed', async ({ api }) => {
  const body = JSON.stringify(aNewPet())
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json']) {
    assertError(await api.request('POST', '/v1/pets', { body, headers: { 'content-type': type } }), 415, 'unsupported_media_type')
  }
  assertError(await api.request('POST', '/v1/pets', { body: new TextEncoder().encode(body) }), 415, 'unsupported_media_type')
  assert.equal((await api.request('GET', '/v1/pets')).body, [])
})

CreatePet('When application/json carries parameters, then it is accepted; a charset other than UTF-8 is 415', async ({ api }) => {
  const body = JSON.stringify(aNewPet())
  assert.is((await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json; charset=utf-8' } })).status, 201)
  assert.is((await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'Application/JSON' } })).status, 201)
  assertError(
    await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json; charset=iso-8859-1' } }),
    415,
    'unsupported_media_type',
  )
})

CreatePet('When the body exceeds 1 MiB, then 413 payload_too_large', async ({ api }) => {
  const body = JSON.stringify(aNewPet({ padding: 'x'.repeat(1024 * 1024) }))
  assertError(await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json' } }), 413, 'payload_too_large')
})

CreatePet(
  'When a body of nearly 1 MiB is all nested arrays or ignored keys, then it is parsed once and the pet created',
  async ({ api }) => {
    const arrays = Array.from({ length: 45_000 }, () => '0,[[[[[[[[]]]]]]]]').join(',')
    const keys = Array.from({ length: 90_000 }, (_, index) => `"k${index.toString().padStart(5, '0')}":0`).join(',')
    for (const [index, body] of [`{"name":"arrays","categoryId":1,"a":[${arrays}]}`, `{"name":"keys","categoryId":2,${keys}}`].entries()) {
      assert.ok(body.length < 1024 * 1024, String(body.length))
      for (const headers of [{}, { 'idempotency-key': `hostile-${index}` }]) {
        const response = await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json', ...headers } })
        assert.is(response.status, 201, response.text)
        assert.equal(Object.keys(response.body as object), ['id', 'name', 'categoryId', 'status'])
      }
    }
  },
)

CreatePet('When many creates run concurrently, then no pet is lost and no id is shared', async ({ api }) => {
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, index) => api.request('POST', '/v1/pets', { body: aNewPet({ name: `pet ${index}` }) })),
  )
  const ids = responses.map((response) => (response.body as { id: number }).id)
  assert.is(new Set(ids).size, 50)
  const listed = (await api.request('GET', '/v1/pets?limit=100')).body as ReadonlyArray<{ id: number }>
  assert.equal(
    listed.map((pet) => pet.id),
    [...ids].sort((a, b) => a - b),
  )
})

CreatePet('When pets are created, then ids are positive, increasing and never reused', async ({ api }) => {
  const ids: number[] = []
  for (let index = 0; index < 3; index += 1)
    ids.push(((await api.request('POST', '/v1/pets', { body: aNewPet() })).body as { id: number }).id)
  assert.equal(ids, [1, 2, 3])
})

CreatePet.run()
