import * as assert from 'uvu/assert'
import { aNewPet, aPet } from '../support/pet-builder.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import type { ApiResponse } from '../support/start-api.js'

const assertDeprecated = (response: ApiResponse): void => {
  assert.is(response.headers.get('deprecation'), '@1795305600')
  assert.is(response.headers.get('sunset'), 'Thu, 05 Dec 2030 00:00:00 GMT')
  assert.is(response.headers.get('link'), '</v1/pets>; rel="successor-version"')
}

const GetPet = apiSuite('GET /v1/pets/{petId}')

GetPet('When the pet exists, then 200 returns it', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Tom', categoryId: 4, status: 'sold' }) })
  const response = await api.request('GET', '/v1/pets/1')
  assert.is(response.status, 200)
  assert.equal(response.body, aPet({ id: 1, name: 'Tom', categoryId: 4, status: 'sold' }))
})

GetPet('The operation is marked deprecated: 200 carries Deprecation, Sunset and the successor Link', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  assertDeprecated(await api.request('GET', '/v1/pets/1'))
})

GetPet('When no animal has the given petId, then 404 with an Error body and the deprecation headers', async ({ api }) => {
  for (const id of ['1', '0', '-3', '9007199254740993', '9223372036854775807']) {
    const response = await api.request('GET', `/v1/pets/${id}`)
    assert.match(assertError(response, 404, 'not_found'), `no pet has id ${id}`)
    assertDeprecated(response)
  }
})

GetPet('When petId is not an integer or lies outside int64, then 400 names petId', async ({ api }) => {
  for (const id of ['abc', '1.5', '0x10', '1e1', '01', '%2B1', '9223372036854775808', '-9223372036854775809']) {
    assert.match(assertError(await api.request('GET', `/v1/pets/${id}`), 400, 'invalid_parameter'), /^petId: /, id)
  }
})

GetPet('When HEAD is sent, then it answers like GET without a body', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const response = await api.request('HEAD', '/v1/pets/1')
  assert.is(response.status, 200)
  assert.is(response.text, '')
  assertDeprecated(response)
})

GetPet.run()
