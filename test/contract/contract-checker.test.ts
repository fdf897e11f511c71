import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { type ContractCheck, contractChecker, type ObservedResponse } from '../support/contract-checker.js'
import { aPet } from '../support/pet-builder.js'

interface Context {
  check: ContractCheck
}

const PET = aPet()
const COMMON = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'x-request-id': 'req-1',
  'content-type': 'application/json; charset=utf-8',
}

const observed = (status: number, headers: Record<string, string>, body: unknown): ObservedResponse => ({
  status,
  headers: new Headers(headers),
  text: body === undefined ? '' : JSON.stringify(body),
})

// The checker stands between the tests and the document; this proves it can fail.
const Checker = suite<Context>('contract checker', {} as Context)

Checker.before(async (context) => {
  context.check = await contractChecker(loadOpenApiDocument())
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
  const problems = check(
    'GET',
    '/v1/pets/1',
    observed(
      200,
      { ...COMMON, deprecation: 'true', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' },
      PET,
    ),
  )
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

Checker('rejects an undescribed path unless it is a 401, a 429 or a route_not_found 404', ({ check }) => {
  assert.equal(check('GET', '/v1/store/orders', observed(404, COMMON, { code: 'route_not_found', message: 'no route', status: 404 })), [])
  assert.equal(
    check(
      'GET',
      '/v1/store/orders',
      observed(429, { ...COMMON, 'retry-after': '5' }, { code: 'rate_limited', message: 'slow down', status: 429 }),
    ),
    [],
  )
  assert.ok(check('GET', '/v1/store/orders', observed(200, COMMON, [])).length > 0)
  assert.ok(check('GET', '/v1/store/orders', observed(404, COMMON, { code: 'not_found', message: 'x', status: 404 })).length > 0)
})

const NOT_ALLOWED = { code: 'method_not_allowed', message: 'DELETE is not allowed here; use GET, HEAD', status: 405 }

Checker('accepts a 405 method_not_allowed with the path’s methods in Allow, HEAD wherever GET is', ({ check }) => {
  assert.equal(check('DELETE', '/v1/pets/1', observed(405, { ...COMMON, allow: 'GET, HEAD' }, NOT_ALLOWED)), [])
  assert.equal(check('PUT', '/v1/pets', observed(405, { ...COMMON, allow: 'GET, HEAD, POST' }, { ...NOT_ALLOWED, message: 'x' })), [])
  assert.equal(check('POST', '/v1/openapi.json', observed(405, { ...COMMON, allow: 'GET, HEAD' }, NOT_ALLOWED)), [])
})

Checker('rejects a 405 whose Allow is missing or differs from the document, or whose body is not that Error', ({ check }) => {
  assert.match(check('DELETE', '/v1/pets/1', observed(405, COMMON, NOT_ALLOWED)).join('\n'), 'Allow is null')
  assert.match(
    check('DELETE', '/v1/pets/1', observed(405, { ...COMMON, allow: 'GET, HEAD, DELETE' }, NOT_ALLOWED)).join('\n'),
    'not GET, HEAD',
  )
  assert.match(
    check('DELETE', '/v1/pets/1', observed(405, { ...COMMON, allow: 'GET, HEAD' }, { ...NOT_ALLOWED, code: 'not_found' })).join('\n'),
    'method_not_allowed',
  )
  assert.match(check('DELETE', '/v1/pets/1', observed(405, { ...COMMON, allow: 'GET, HEAD' }, undefined)).join('\n'), 'not an Error')
})

Checker('rejects any other status for a method the path does not offer, and a 405 on an unknown path', ({ check }) => {
  assert.match(check('DELETE', '/v1/pets/1', observed(204, COMMON, undefined)).join('\n'), 'expected 405')
  assert.match(
    check('DELETE', '/v1/pets/1', observed(404, COMMON, { code: 'route_not_found', message: 'x', status: 404 })).join('\n'),
    'expected 405',
  )
  assert.match(check('DELETE', '/v1/store', observed(405, { ...COMMON, allow: 'GET, HEAD' }, NOT_ALLOWED)).join('\n'), 'does not describe')
})

Checker('accepts OPTIONS as 204 with Allow and no body; rejects a body, a wrong Allow or an unknown path', ({ check }) => {
  assert.equal(check('OPTIONS', '/v1/pets', observed(204, { ...COMMON, allow: 'GET, HEAD, POST' }, undefined)), [])
  assert.equal(check('OPTIONS', '/v1/openapi.json', observed(204, { ...COMMON, allow: 'GET, HEAD' }, undefined)), [])
  assert.match(check('OPTIONS', '/v1/pets', observed(204, { ...COMMON, allow: 'GET, HEAD, POST' }, {})).join('\n'), 'a body')
  assert.match(
    check('OPTIONS', '/v1/pets/7', observed(204, { ...COMMON, allow: 'GET, HEAD, POST' }, undefined)).join('\n'),
    'not GET, HEAD',
  )
  assert.match(check('OPTIONS', '/v1/pets', observed(405, { ...COMMON, allow: 'GET, HEAD, POST' }, NOT_ALLOWED)).join('\n'), 'expected 204')
  assert.ok(check('OPTIONS', '/v1/store', observed(204, { ...COMMON, allow: 'GET, HEAD' }, undefined)).length > 0)
})

Checker('accepts a CORS preflight 204 without Allow on any path under /v1', ({ check }) => {
  const preflight = { ...COMMON, 'access-control-allow-methods': 'GET,HEAD,POST,OPTIONS' }
  assert.equal(check('OPTIONS', '/v1/pets', observed(204, preflight, undefined)), [])
  assert.equal(check('OPTIONS', '/v1/store', observed(204, preflight, undefined)), [])
})

Checker('rejects an answer described in prose only that lacks a header every answer carries', ({ check }) => {
  const withoutId = Object.fromEntries(Object.entries(COMMON).filter(([name]) => name !== 'x-request-id'))
  assert.match(
    check('OPTIONS', '/v1/pets', observed(204, { ...withoutId, allow: 'GET, HEAD, POST' }, undefined)).join('\n'),
    'missing header X-Request-Id',
  )
  assert.match(
    check('PUT', '/v1/pets', observed(405, { ...COMMON, allow: 'GET, HEAD, POST', 'cache-control': 'max-age=60' }, NOT_ALLOWED)).join('\n'),
    'Cache-Control',
  )
})

Checker.run()
