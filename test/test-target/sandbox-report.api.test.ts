import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { FINDING_CODES } from '../../adapters/test-target/findings.js'
import type { SandboxReport } from '../../adapters/test-target/sandbox-report.js'
import { WARNING_CODES } from '../../adapters/test-target/warnings.js'
import { DEFAULT_SANDBOX_BUDGET } from '../../src/store/sandbox-budget.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import { oneWindowCounter } from '../support/one-window-counter.js'
import { SEED } from '../support/sandbox-spaces.js'
import { OTHER_KEY, type RunningApi, TEST_KEY } from '../support/start-api.js'

const reportOf = async (api: RunningApi, key: string = TEST_KEY): Promise<SandboxReport> => {
  const response = await api.request('GET', '/v1/sandbox/report', { key })
  assert.is(response.status, 200, response.text)
  return response.body as SandboxReport
}

/** The findings of one code, as their sequence numbers. */
const found = async (api: RunningApi, code: string, key: string = TEST_KEY): Promise<ReadonlyArray<ReadonlyArray<number>>> =>
  (await reportOf(api, key)).findings.filter((finding) => finding.code === code).map((finding) => finding.sequences)

/** Every finding and every warning, as code and sequence numbers. */
const judged = async (
  api: RunningApi,
): Promise<Record<'findings' | 'warnings', ReadonlyArray<readonly [string, ReadonlyArray<number>]>>> => {
  const { findings, warnings } = await reportOf(api)
  return {
    findings: findings.map((finding) => [finding.code, finding.sequences]),
    warnings: warnings.map((warning) => [warning.code, warning.sequences]),
  }
}

/** The URL a page's `Link` offers as the next. */
const nextPage = (page: { readonly headers: Headers }): string => /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? ''

const create = (api: RunningApi, headers: Record<string, string> = {}, name = 'Rex') =>
  api.request('POST', '/v1/pets', { body: aNewPet({ name }), headers })

const Report = apiSuite('The sandbox report: PETSTORE_TEST_TARGET=on', () => ({
  sandboxes: memoryStore(SEED).dataSets,
}))

Report('The served contract names the rule of each finding and warning the report gives, and no other', ({ api }) => {
  const schemas = (api.contract.components as { schemas: Record<string, { enum?: unknown; description?: string }> }).schemas
  for (const [schema, codes] of [
    ['FindingCode', FINDING_CODES],
    ['WarningCode', WARNING_CODES],
  ] as const) {
    assert.equal(schemas[schema]?.enum, codes, schema)
    for (const code of codes) assert.match(schemas[schema]?.description ?? '', `| \`${code}\` |`, code)
  }
})

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

Report(
  'Another request of the operation sent at once after a 503 is no retry_after_ignored, only a warning request_before_retry_after',
  async ({ api }) => {
    assertError(
      await api.request('GET', '/v1/pets?limit=2', { headers: { prefer: 'fault=503, retry-after=3600' } }),
      503,
      'service_unavailable',
    )
    assert.is((await api.request('GET', '/v1/pets?limit=2&status=sold')).status, 200)
    assert.is((await api.request('POST', '/v1/sandbox/clock', { body: { advance: 3_600_000 } })).status, 200)
    assert.is((await api.request('GET', '/v1/pets?limit=2')).status, 200)
    assert.equal(await judged(api), { findings: [], warnings: [['request_before_retry_after', [1, 2]]] })
  },
)

Report('The same request sent again too soon is retry_after_ignored alone, whatever other request came between', async ({ api }) => {
  assertError(
    await api.request('GET', '/v1/pets?limit=2', { headers: { prefer: 'fault=503, retry-after=3600' } }),
    503,
    'service_unavailable',
  )
  assert.is((await api.request('GET', '/v1/pets?limit=2&status=sold')).status, 200)
  assert.is((await api.request('GET', '/v1/pets?limit=2')).status, 200)
  assert.equal(await judged(api), { findings: [['retry_after_ignored', [1, 3]]], warnings: [] })
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

Report('A create that timed out at the gateway, retried without a key, is told retry_without_idempotency_key', async ({ api }) => {
  assert.is((await api.request('PUT', '/v1/sandbox/faults', { body: [{ operation: 'createPet', fault: '504', times: 1 }] })).status, 200)
  assert.is((await create(api)).status, 504)
  assert.is((await create(api)).status, 201)
  assert.equal(await found(api, 'retry_without_idempotency_key'), [[1, 2]])
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

Report('Calls of the deprecated getPet are no finding: deprecatedOperations counts them once, with its Sunset date', async ({ api }) => {
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assertError(await api.request('GET', '/v1/pets/999'), 404, 'not_found')
  assert.is((await api.request('HEAD', '/v1/pets/1')).status, 200)
  const report = await reportOf(api)
  assert.equal([report.findings, report.warnings], [[], []])
  assert.equal(
    report.deprecatedOperations.map(({ operation, count, sequences }) => ({ operation, count, sequences })),
    [{ operation: 'getPet', count: 3, sequences: [1, 3, 4] }],
  )
  assert.is(
    report.deprecatedOperations[0]?.message,
    'getPet is deprecated and will be removed on Thu, 05 Dec 2030 00:00:00 GMT (its Sunset): use /v1/pets instead (its successor-version).',
  )
})

Report('Page 1 read twice is no finding: a warning link_not_followed, naming both reads', async ({ api }) => {
  const first = await api.request('GET', '/v1/pets?limit=2')
  assert.match(first.headers.get('link') ?? '', 'rel="next"')
  assert.is((await api.request('GET', '/v1/pets?limit=2')).status, 200)
  assert.equal(await judged(api), { findings: [], warnings: [['link_not_followed', [1, 2]]] })
})

Report('A walk restarted after a page whose next was never asked for is a warning link_not_followed', async ({ api }) => {
  const first = await api.request('GET', '/v1/pets?limit=2')
  assert.is((await api.request('GET', nextPage(first))).status, 200)
  assert.is((await api.request('GET', '/v1/pets?limit=2')).status, 200)
  assert.equal(await judged(api), { findings: [], warnings: [['link_not_followed', [2, 3]]] })
})

Report('Two page walks side by side, each following its Link, give no finding and no warning', async ({ api }) => {
  const [one, other] = [await api.request('GET', '/v1/pets?limit=2'), await api.request('GET', '/v1/pets?limit=2')]
  const [oneNext, otherNext] = [await api.request('GET', nextPage(one)), await api.request('GET', nextPage(other))]
  assert.match(oneNext.headers.get('link') ?? '', 'rel="next"')
  assert.is((await api.request('GET', nextPage(oneNext))).status, 200)
  assert.is((await api.request('GET', nextPage(otherNext))).status, 200)
  assert.equal(await judged(api), { findings: [], warnings: [] })
})

Report('A client that follows the Link, or asks for another first page, is not told link_not_followed', async ({ api }) => {
  const first = await api.request('GET', '/v1/pets?limit=2')
  assert.is((await api.request('GET', nextPage(first))).status, 200)
  assert.is((await api.request('GET', '/v1/pets?limit=2&status=sold')).status, 200)
  assert.equal(await judged(api), { findings: [], warnings: [] })
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

Report(
  'A well-formed Authorization, whatever the case of Bearer and the spaces around the key, is no malformed_authorization',
  async ({ api }) => {
    for (const authorization of [`Bearer ${TEST_KEY}`, `bearer ${TEST_KEY}`, `BEARER   ${TEST_KEY}  `])
      assert.is((await api.request('GET', '/v1/pets', { key: false, headers: { authorization } })).status, 200)
    assert.equal(await judged(api), { findings: [], warnings: [] })
  },
)

Report(
  'A create retried with its Idempotency-Key and body, and a new key for each new pet, is no idempotency_key_reused',
  async ({ api }) => {
    assert.is((await create(api, { 'idempotency-key': 'k-1', prefer: 'fault=500' }, 'Rex')).status, 500)
    assert.is((await create(api, { 'idempotency-key': 'k-1' }, 'Rex')).status, 201)
    assert.is((await create(api, { 'idempotency-key': 'k-1' }, 'Rex')).status, 201)
    assert.is((await create(api, { 'idempotency-key': 'k-2' }, 'Fido')).status, 201)
    assert.equal(await judged(api), { findings: [], warnings: [] })
  },
)

Report('A correct client’s session leaves findings and warnings empty, and lists its deprecated calls apart', async ({ api }) => {
  // A 503 retried once its Retry-After has passed, by the sandbox's clock, with the create's Idempotency-Key.
  assertError(await create(api, { 'idempotency-key': 'order-1', prefer: 'fault=503' }), 503, 'service_unavailable')
  assert.is((await api.request('POST', '/v1/sandbox/clock', { body: { advance: 5000 } })).status, 200)
  assert.is((await create(api, { 'idempotency-key': 'order-1' })).status, 201)
  // A failed create retried at once (a 500 asks for no wait) with its key.
  assertError(await create(api, { 'idempotency-key': 'order-2', prefer: 'fault=500' }, 'Fido'), 500, 'internal_error')
  assert.is((await create(api, { 'idempotency-key': 'order-2' }, 'Fido')).status, 201)
  // Two walks side by side, each to its end by its Link, and a pet read by the deprecated getPet.
  const walk = async (): Promise<number> => {
    let [page, pages] = [await api.request('GET', '/v1/pets?limit=1'), 1]
    for (; nextPage(page) !== ''; pages += 1) page = await api.request('GET', nextPage(page))
    return pages
  }
  const [pages] = await Promise.all([walk(), walk()])
  assert.ok(pages > 2, `${pages} pages`)
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
  const report = await reportOf(api)
  assert.equal([report.findings, report.warnings], [[], []])
  assert.equal(
    report.deprecatedOperations.map(({ operation, count }) => [operation, count]),
    [['getPet', 1]],
  )
})

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

/** A page read twice, a getPet call and a failed create retried without a key: a warning, a deprecated use and a finding. */
const somethingOfEach = async (api: RunningApi): Promise<void> => {
  assert.is((await api.request('GET', '/v1/pets?limit=2')).status, 200)
  assert.is((await api.request('GET', '/v1/pets?limit=2')).status, 200)
  assert.is((await api.request('GET', '/v1/pets/1')).status, 200)
  assertError(await create(api, { prefer: 'fault=500' }), 500, 'internal_error')
  assert.is((await create(api)).status, 201)
  const report = await reportOf(api)
  assert.equal([report.findings.length, report.warnings.length, report.deprecatedOperations.length], [1, 1, 1])
}

Report('A reset starts the report again: no findings, warnings or deprecated calls, nothing reached', async ({ api }) => {
  await somethingOfEach(api)
  assert.is((await api.request('POST', '/v1/sandbox/reset')).status, 204)
  const report = await reportOf(api)
  assert.equal(
    [report.journal, report.findings, report.warnings, report.deprecatedOperations, report.coverage.totals.responses.reached],
    [{ kept: 0, dropped: 0 }, [], [], [], 0],
  )
})

Report(
  'Clearing the journal clears the findings, warnings and deprecated calls but not the coverage, counted since the last reset',
  async ({ api }) => {
    await somethingOfEach(api)
    assert.is((await api.request('DELETE', '/v1/sandbox/requests')).status, 204)
    const report = await reportOf(api)
    assert.equal([report.findings, report.warnings, report.deprecatedOperations], [[], [], []])
    assert.ok(report.coverage.totals.responses.reached > 0)
  },
)

Report('The report says how many requests the full journal let go, uncounted in the deprecated calls', async ({ api }) => {
  // Requests of 40 long header lines each fill the journal's part of the budget in a few dozen.
  const sent = 60
  const padding = Array.from({ length: 40 }, (_, index) => [`x-pad-${index}`, 'p'.repeat(140)] as const)
  for (let index = 0; index < sent; index += 1) {
    assert.is((await api.request('GET', '/v1/pets/1', { headerLines: padding })).status, 200)
  }
  const { journal, deprecatedOperations } = await reportOf(api)
  assert.ok(journal.dropped > 0, `${journal.dropped} dropped`)
  assert.is(journal.kept + journal.dropped, sent)
  assert.equal([deprecatedOperations[0]?.count, deprecatedOperations[0]?.sequences[0]], [journal.kept, journal.dropped + 1])
})

Report('retry_after_ignored judges a Retry-After given as an HTTP-date like one in seconds', async ({ api }) => {
  const date = 'Tue, 01 Dec 2026 10:00:00 GMT'
  const until = 'Tue, 01 Dec 2026 11:00:00 GMT'
  await api.request('PUT', '/v1/sandbox/faults', {
    body: [{ operation: 'listPets', answer: { status: 503, headers: { date, 'retry-after': until } }, times: 2 }],
  })
  // Retried at once: an hour sooner than the date, counted from the answer's Date.
  assert.is((await api.request('GET', '/v1/pets', { scripted: true })).status, 503)
  assert.is((await api.request('GET', '/v1/pets', { scripted: true })).status, 503)
  const [finding, ...others] = (await reportOf(api)).findings
  assert.equal([finding?.code, finding?.sequences, others], ['retry_after_ignored', [1, 2], []])
  assert.match(finding?.message ?? '', `whose Retry-After asked to wait until ${until}.`)
  // Retried once the hour has passed, by the sandbox's clock: no finding.
  assert.is((await api.request('POST', '/v1/sandbox/clock', { body: { advance: 3_600_000 } })).status, 200)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assert.equal(
    (await reportOf(api)).findings.map((judged) => judged.sequences),
    [[1, 2]],
  )
})

Report('An HTTP-date Retry-After without a Date is counted from when the answer was given', async ({ api }) => {
  const until = new Date(Date.now() + 3_600_000).toUTCString()
  await api.request('PUT', '/v1/sandbox/faults', {
    body: [{ operation: 'listPets', answer: { status: 429, headers: { 'retry-after': until } }, times: 1 }],
  })
  assert.is((await api.request('GET', '/v1/pets', { scripted: true })).status, 429)
  assert.is((await api.request('GET', '/v1/pets')).status, 200)
  assert.equal(
    (await reportOf(api)).findings.map((judged) => judged.code),
    ['retry_after_ignored'],
  )
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

/** A sandbox that holds a few pets at most, to fill in a few creates. */
const SMALL_STORE = 4096

const Full = apiSuite('The sandbox report of a sandbox that is full', () => ({
  sandboxes: memoryStore([], {}, SMALL_STORE).dataSets,
  budget: { ...DEFAULT_SANDBOX_BUDGET, storeBytes: SMALL_STORE },
}))

Full(
  'A create refused 507 sandbox_full, sent again without a key, is no retry_without_idempotency_key: nothing was stored',
  async ({ api }) => {
    let answer = await create(api)
    for (let created = 1; answer.status === 201 && created < 1000; created += 1) answer = await create(api)
    assertError(answer, 507, 'sandbox_full')
    assertError(await create(api), 507, 'sandbox_full')
    assert.equal(await judged(api), { findings: [], warnings: [] })
  },
)

Full.run()
