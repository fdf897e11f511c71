import * as assert from 'uvu/assert'
import { apiSuite } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'

const ConditionalGet = apiSuite('Conditional GET: ETag and If-None-Match')

ConditionalGet(
  'getPet carries a strong ETag; If-None-Match with it gives 304 without a body, with the deprecation headers',
  async ({ api }) => {
    await api.request('POST', '/v1/pets', { body: aNewPet() })
    const first = await api.request('GET', '/v1/pets/1')
    const etag = first.headers.get('etag') ?? ''
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/)
    assert.is(first.headers.get('cache-control'), 'private, no-cache')
    const again = await api.request('GET', '/v1/pets/1', { headers: { 'if-none-match': etag } })
    assert.is(again.status, 304)
    assert.is(again.text, '')
    assert.is(again.headers.get('etag'), etag)
    assert.is(again.headers.get('deprecation'), '@1795305600')
    assert.is(again.headers.get('sunset'), 'Thu, 05 Dec 2030 00:00:00 GMT')
    assert.is(again.headers.get('link'), '</v1/pets>; rel="successor-version"')
  },
)

ConditionalGet('listPets carries an ETag that changes when the page changes, and 304 repeats the Link header', async ({ api }) => {
  for (let index = 0; index < 3; index += 1) await api.request('POST', '/v1/pets', { body: aNewPet() })
  const page = await api.request('GET', '/v1/pets?limit=2')
  const etag = page.headers.get('etag') ?? ''
  const notModified = await api.request('GET', '/v1/pets?limit=2', { headers: { 'if-none-match': etag } })
  assert.is(notModified.status, 304)
  assert.is(notModified.headers.get('link'), page.headers.get('link'))
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const longer = await api.request('GET', '/v1/pets?limit=10')
  const longerEtag = longer.headers.get('etag')
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const changed = await api.request('GET', '/v1/pets?limit=10', { headers: { 'if-none-match': longerEtag ?? '' } })
  assert.is(changed.status, 200)
  assert.is.not(changed.headers.get('etag'), longerEtag)
})

ConditionalGet('A page whose next link appears gets a new ETag even when its body is the same', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const whole = await api.request('GET', '/v1/pets?limit=2')
  assert.is(whole.headers.get('link'), null)
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const withNext = await api.request('GET', '/v1/pets?limit=2', { headers: { 'if-none-match': whole.headers.get('etag') ?? '' } })
  assert.is(withNext.status, 200)
  assert.equal(withNext.body, whole.body)
  assert.ok(withNext.headers.get('link') !== null)
  assert.is.not(withNext.headers.get('etag'), whole.headers.get('etag'))
})

ConditionalGet('If-None-Match with another tag, a list of tags or * behaves as RFC 9110 says', async ({ api }) => {
  await api.request('POST', '/v1/pets', { body: aNewPet() })
  const etag = (await api.request('GET', '/v1/pets/1')).headers.get('etag') ?? ''
  assert.is((await api.request('GET', '/v1/pets/1', { headers: { 'if-none-match': '"other"' } })).status, 200)
  assert.is((await api.request('GET', '/v1/pets/1', { headers: { 'if-none-match': `"other", ${etag}` } })).status, 304)
  assert.is((await api.request('GET', '/v1/pets/1', { headers: { 'if-none-match': '*' } })).status, 304)
})

ConditionalGet('Errors are never cached: a 404 carries Cache-Control no-store and no ETag', async ({ api }) => {
  const missing = await api.request('GET', '/v1/pets/99')
  assert.is(missing.headers.get('cache-control'), 'no-store')
  assert.is(missing.headers.get('etag'), null)
})

ConditionalGet.run()
