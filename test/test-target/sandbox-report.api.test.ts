import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { Coverage } from '../../adapters/test-target/contract-coverage.js'
import type { Finding } from '../../adapters/test-target/findings.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { oneWindowCounter } from '../support/one-window-counter.js'
import { SEED } from '../support/sandbox-spaces.js'
import { OTHER_KEY, type RunningApi, TEST_KEY } from '../support/start-api.js'

interface Report {
  readonly journal: { readonly kept: number; readonly dropped: number }
  readonly findings: ReadonlyArray<Finding>
  readonly coverage: Coverage
}

const reportOf = async (api: RunningApi, key: string = TEST_KEY): Promise<Report> => {
  const response = await api.request('GET', '/v1/sandbox/report', { key })
  assert.is(response.status, 200, response.text)
  return response.body as Report
}

/** The findings of one code, as code and sequence numbers. */
const found = async (api: RunningApi, code: string, key: string = TEST_KEY): Promise<ReadonlyArray<ReadonlyArray<number>>> =>
  (await reportOf(api, key)).findings.filter((finding) => finding.code === code).map((finding) => finding.sequences)

const create = (api: RunningApi, headers: Record<string, string> = {}, name = 'Rex') =>
  api.request('POST', '/v1/pets', { body: aNewPet({ name }), headers })

const Report = apiSuite('The sandbox report: PETSTORE_TEST_TARGET=on', () => ({
  sandboxes: memoryStore(SEED).dataSets,
}))

Report('A client that retries a 503 at once is told retry_after_ignored, naming both requests', async ({ api }) => {
  assertError(await create(api, { prefer: 'fault=503, retry-after=3600' }), 503, 'service_unavailable')
  assert.is((await create(api)).status, 201)
  const [finding] = (await reportOf(api)).findings
  assert.is(finding?.code, 'retry_after_ignored')
  assert.equal(finding?.sequences, [1, 2])
  assert.match(finding?.message ?? '', /^createPet was sent again \d+ ms after a 503 whose Retry-After asked to wait 3600 s\.$/)
})

Report('A client that waits out Retry-After, by the sandbox’s clock, is not told retry_after_ignored', async ({ api }) => {
  assertError(await create(api, { prefer: 'fault=503, retry-after=3600' }), 503, 'service_unavailable')
  assert.is((await api.request('POST', '/v1/sandbox/clock', { body: { advance: 3_600_000 } })).status, 200)
  assert.is((await create(api)).status, 201)
  assert.equal(await found(api, 'retry_after_ignored'), [])
})

Report('A 429 retried at once by another operation is no ignored Retry-After: the judgement is per operation', async ({ api }) => {
  assertError(await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=429, retry-after=3600' } }), 429, 'rate_limited')
  assert.is((await create(api)).status, 201)
  assert.equal(await found(api, 'retry_after_ignored'), [])
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assert.equal(await found(api, 'retry_after_ignored'), [[1, 3]])
})

Report('A create sent again without an Idempotency-Key after it failed is told retry_without_idempotency_key', async ({ api }) => {
  assertError(await create(api, { prefer: 'fault=500' }), 500, 'internal_error')
  assert.is((await create(api)).status, 201)
  assert.equal(await found(api, 'retry_without_idempotency_key'), [[1, 2]])
})

Report('A failed create retried with an Idempotency-Key, or followed by another pet, is no retry without one', async ({ api }) => {
  assertError(await create(api, { prefer: 'fault=500' }), 500, 'internal_error')
  assert.is((await create(api, { 'idempotency-key': 'k-1' })).status, 201)
  assertError(await create(api, { prefer: 'fault=503' }), 503, 'service_unavailable')
  assert.is((await create(api, {}, 'Another')).status, 201)
  assert.equal(await found(api, 'retry_without_idempotency_key'), [])
})

Report(
  'One Idempotency-Key sent with another body is told idempotency_key_reused, naming the first create and the 422',
  async ({ api }) => {
    assert.is((await create(api, { 'idempotency-key': 'k-1' }, 'Rex')).status, 201)
    assert.is((await api.request('GET', '/v1/pets')).status, 200)
    assertError(await create(api, { 'idempotency-key': 'k-1' }, 'Fido'), 422, 'idempotency_key_mismatch')
    assert.equal(await found(api, 'idempotency_key_reused'), [[1, 3]])
  },
)

Report('Calls of the deprecated getPet are told deprecated_operation_used once, with its Sunset date', async ({ api }) => {
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assertError(await api.request('GET', '/v1/pets/999'), 404, 'not_found')
  const findings = (await reportOf(api)).findings.filter((finding) => finding.code === 'deprecated_operation_used')
  assert.equal(
    findings.map((finding) => finding.sequences),
    [[1, 3]],
  )
  assert.match(findings[0]?.message ?? '', 'Thu, 05 Dec 2030 00:00:00 GMT')
})

Report('Asking for the first page again right after a page that offered the next is told link_not_followed', async ({ api }) => {
  const first = await api.request('GET', '/v1/pets?limit=2')
  assert.match(first.headers.get('link') ?? '', 'rel="next"')
  assert.is((await api.request('GET', '/v1/pets?limit=2')).status, 200)
  assert.equal(await found(api, 'link_not_followed'), [[1, 2]])
})

Report('A client that follows the Link, or asks for another first page, is not told link_not_followed', async ({ api }) => {
  const first = await api.request('GET', '/v1/pets?limit=2')
  const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? ''
  assert.is((await api.request('GET', next)).status, 200)
  assert.is((await api.request('GET', '/v1/pets?limit=2&status=sold')).status, 200)
  assert.equal(await found(api, 'link_not_followed'), [])
})

Report(
  "Requests refused for the form of an Authorization that carried the sandbox's key are kept and told malformed_authorization",
  async ({ api }) => {
    const noBearer = await api.request('GET', '/v1/pets', { key: false, headers: { authorization: TEST_KEY } })
    assertError(noBearer, 401, 'unauthorized')
    assertError(
      await api.request('GET', '/v1/pets', { key: false, headers: { authorization: `Bearer Bearer ${TEST_KEY}` } }),
      401,
      'unauthorized',
    )
    assertError(await api.request('GET', '/v1/pets', { key: false, headers: { authorization: TEST_KEY } }), 401, 'unauthorized')
    const twice = await api.request('GET', '/v1/pets', {
      key: false,
      headerLines: [
        ['Authorization', `Bearer ${TEST_KEY}`],
        ['Authorization', `Bearer ${TEST_KEY}`],
      ],
    })
    assertError(twice, 400, 'invalid_request')
    const findings = (await reportOf(api)).findings
    assert.equal(
      findings.map((finding) => [finding.code, finding.sequences]),
      [
        ['malformed_authorization', [1, 3]],
        ['malformed_authorization', [2]],
        ['malformed_authorization', [4]],
      ],
    )
    assert.match(findings[0]?.message ?? '', 'Authorization "[redacted]"')
    assert.match(findings[1]?.message ?? '', 'Authorization "Bearer Bearer [redacted]"')
    assert.match(findings[2]?.message ?? '', /^Refused 400: .*"Bearer \[redacted\], Bearer \[redacted\]"/)
    const journal = await api.request('GET', '/v1/sandbox/requests')
    assert.not.match(journal.text, TEST_KEY)
    assert.is((await reportOf(api, OTHER_KEY)).journal.kept, 0)
  },
)

Report('A malformed Authorization that carries no sandbox key is kept nowhere', async ({ api }) => {
  assertError(await api.request('GET', '/v1/pets', { key: false, headers: { authorization: 'not-a-key-of-anyone' } }), 401, 'unauthorized')
  assertError(await api.request('GET', '/v1/pets', { key: 'not-a-key-of-anyone' }), 401, 'unauthorized')
  assert.equal([(await reportOf(api)).journal.kept, (await reportOf(api, OTHER_KEY)).journal.kept], [0, 0])
})

Report('Coverage lists every response the contract declares for the pet operations, marked reached or not', async ({ api }) => {
  const declared = (await reportOf(api)).coverage
  const badBody = declared.responses.find((response) => response.operation === 'createPet' && response.status === 400)
  assert.equal(
    badBody?.codes.map((code) => [code.code, code.reached]),
    [
      ['invalid_body', false],
      ['invalid_json', false],
      ['invalid_parameter', false],
      ['invalid_request', false],
    ],
  )
  assert.ok(declared.responses.every((response) => !response.reached))
  // Each error response names the few codes its body may carry, never the whole closed set.
  const errors = declared.responses.filter((response) => response.status >= 400)
  assert.ok(
    errors.every((response) => response.codes.length >= 1 && response.codes.length <= 4),
    JSON.stringify(errors.map((response) => [response.operation, response.status, response.codes.length])),
  )
  assert.equal(declared.totals.responses, { declared: declared.responses.length, reached: 0 })
  assert.equal(
    declared.responses.filter((response) => response.operation === 'getPet').map((response) => response.status),
    [200, 304, 400, 401, 404, 429, 500, 502, 503, 504],
  )

  assertError(await api.request('POST', '/v1/pets', { body: { name: 'no category' } }), 400, 'invalid_body')
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  const reached = (await reportOf(api)).coverage
  const reachedNow = reached.responses.filter((response) => response.reached).map((response) => `${response.operation} ${response.status}`)
  assert.equal(reachedNow, ['listPets 200', 'createPet 400'])
  const codes = reached.responses.find((response) => response.operation === 'createPet' && response.status === 400)?.codes
  assert.equal(
    codes?.filter((code) => code.reached).map((code) => code.code),
    ['invalid_body'],
  )
  assert.equal(reached.totals.responses.reached, 2)
  assert.equal(reached.totals.codes.reached, 1)
})

Report('Coverage lists the faults a sandbox may ask for, and marks those its requests reached', async ({ api }) => {
  assert.ok((await reportOf(api)).coverage.faults.every((fault) => !fault.reached))
  assertError(await api.request('GET', '/v1/pets', { headers: { prefer: 'fault=503' } }), 503, 'service_unavailable')
  const { faults, totals, responses } = (await reportOf(api)).coverage
  assert.equal(
    faults.filter((fault) => fault.reached).map((fault) => fault.fault),
    ['503'],
  )
  assert.equal(totals.faults, { declared: faults.length, reached: 1 })
  assert.ok(faults.some((fault) => fault.fault === 'reset'))
  const unavailable = responses.find((response) => response.operation === 'listPets' && response.status === 503)
  assert.equal([unavailable?.reached, unavailable?.codes], [true, [{ code: 'service_unavailable', reached: true }]])
})

Report('A reset starts the report again: no findings, nothing reached', async ({ api }) => {
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
  assert.is((await reportOf(api)).findings.length, 1)
  assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
  const report = await reportOf(api)
  assert.equal([report.journal, report.findings, report.coverage.totals.responses.reached], [{ kept: 0, dropped: 0 }, [], 0])
})

Report('Clearing the journal clears the findings but not the coverage, counted since the last reset', async ({ api }) => {
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
  assert.is((await api.request('DELETE', '/v1/sandbox/requests')).status, 204)
  const report = await reportOf(api)
  assert.equal([report.findings, report.coverage.totals.responses.reached], [[], 1])
})

Report('The report says how many requests the full journal let go, on which a finding could rest', async ({ api }) => {
  for (let index = 0; index < 101; index += 1) assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
  const report = await reportOf(api)
  assert.equal(report.journal, { kept: 100, dropped: 1 })
  assert.is(report.findings[0]?.sequences[0], 2)
})

Report.run()

const Limited = apiSuite('The sandbox report with a rate limit of 2 a minute', () => ({
  sandboxes: memoryStore().dataSets,
  rateLimit: { limit: 2, counter: oneWindowCounter() },
}))

Limited('Reading the report spends none of the key’s quota: an open inspector polls it (it has a quota of its own)', async ({ api }) => {
  for (let index = 0; index < 5; index += 1) await reportOf(api)
  assert.equal([(await api.request('GET', '/v1/pets')).status, (await api.request('GET', '/v1/pets')).status], [200, 200])
  assertError(await api.request('GET', '/v1/pets'), 429, 'rate_limited')
  assertError(await api.request('GET', '/v1/sandbox/report', { key: false }), 401, 'unauthorized')
})

Limited.run()
