import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type ContractCheck, contractChecker, type ObservedResponse } from '../support/contract-checker.js'

interface Context {
  check: ContractCheck
}

const PET = { id: 1, name: 'Rex', categoryId: 1, status: 'available' }
const COMMON = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'x-request-id': 'req-1', 'content-type': 'application/json; charset=utf-8' }

const observed = (status: number, headers: Record<string, string>, body: unknown): ObservedResponse => ({
  status,
  headers: new Headers(headers),
  text: body === undefined ? '' : JSON.stringify(body),
})

// The checker stands between the tests and the document; this proves it can fail.
const Checker = suite<Context>('contract checker', {} as Context)

Checker.before(async (context) => {
  context.check = await contractChecker()
})

Checker('accepts a response the document describes', ({ check }) => {
  assert.equal(check('POST', '/v1/pets', observed(201, { ...COMMON, location: '/v1/pets/1' }, PET)), [])
})

Checker('rejects a status the operation does not declare', ({ check }) => {
  const problems = check('POST', '/v1/pets', observed(200, COMMON, PET))
  assert.match(problems.join('\n'), 'status not declared')
})

Checker('rejects a response missing a declared required header', ({ check }) => {
  const problems = check('POST', '/v1/pets', observed(201, COMMON, PET))
  assert.match(problems.join('\n'), 'missing header Location')
})

Checker('rejects an invalid header value', ({ check }) => {
  const problems = check('GET', '/v1/pets/1', observed(200, { ...COMMON, deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }, PET))
  assert.match(problems.join('\n'), 'header')
})

Checker('rejects an extra field in a Pet', ({ check }) => {
  const problems = check('POST', '/v1/pets', observed(201, { ...COMMON, location: '/v1/pets/1' }, { ...PET, owner: 'me' }))
  assert.match(problems.join('\n'), 'additionalProperty')
})

Checker('rejects an extra field in an Error', ({ check }) => {
  const error = { code: 'invalid_parameter', message: 'limit: bad', status: 400, stack: 'at x' }
  assert.match(check('GET', '/v1/pets', observed(400, COMMON, error)).join('\n'), 'additionalProperty')
})

Checker('rejects an Error whose status differs from the HTTP status', ({ check }) => {
  const error = { code: 'invalid_parameter', message: 'limit: bad', status: 422 }
  assert.ok(check('GET', '/v1/pets', observed(400, COMMON, error)).length > 0)
})

Checker('rejects an undescribed path unless it is a 401 or a route_not_found 404', ({ check }) => {
  assert.equal(check('GET', '/v1/store/orders', observed(404, COMMON, { code: 'route_not_found', message: 'no route', status: 404 })), [])
  assert.ok(check('GET', '/v1/store/orders', observed(200, COMMON, [])).length > 0)
  assert.ok(check('GET', '/v1/store/orders', observed(404, COMMON, { code: 'not_found', message: 'x', status: 404 })).length > 0)
})

Checker.run()
