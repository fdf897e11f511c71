import * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { testTargetContract } from '../../adapters/test-target/contract.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { RateLimitCounter } from '../../src/store/rate-limit-counter.js'
import { assertError } from '../support/api-suite.js'
import { startApi, TEST_KEY } from '../support/start-api.js'

interface Operation {
  readonly operationId: string
  readonly security?: ReadonlyArray<unknown>
  readonly requestBody?: { readonly content: Readonly<Record<string, unknown>> }
  readonly responses: Readonly<Record<string, unknown>>
}

interface Document {
  readonly security?: ReadonlyArray<unknown>
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch']

/** Every operation of a document, with its method and its path under /v1 (`{petId}` as 1). */
const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method] as Operation | undefined
      if (operation === undefined) return []
      // An operation's own `security` wins over the document's; `[]` needs no credential.
      const authenticated = (operation.security ?? document.security ?? []).length > 0
      return [{ operation, method: method.toUpperCase(), path: `/v1${path.replace(/\{[^}]+\}/g, '1')}`, authenticated }]
    }),
  )

/**
 * The statuses the rules every answer follows (the contract's `contract` tag) give an operation,
 * whatever it does: any request may meet an unexpected failure (500); under /v1, authentication comes
 * first (401, and 400 `invalid_request` for two `Authorization` headers) and the rate limit, when on,
 * counts every authenticated request (429); a JSON body it reads is refused for its size (413), its
 * type (415) or its syntax (400 `invalid_json`). A body an operation never reads (any type) is refused for nothing.
 */
const requiredStatuses = (operation: Operation, authenticated: boolean): ReadonlyArray<string> => [
  '500',
  ...(authenticated ? ['400', '401', '429'] : []),
  ...(operation.requestBody?.content['application/json'] === undefined ? [] : ['400', '413', '415']),
]

const Declared = suite('Each operation declares every status the service can answer on it')

Declared('in every served contract, each operation declares the statuses the rules every answer follows give it', () => {
  for (const [name, served] of [
    ['default', loadOpenApiDocument()],
    ['test target', testTargetContract(loadOpenApiDocument())],
  ] as const) {
    const document = served as unknown as Document
    for (const { operation, authenticated } of operationsOf(document)) {
      const missing = requiredStatuses(operation, authenticated).filter((status) => operation.responses[status] === undefined)
      assert.equal(missing, [], `${operation.operationId} (${name}) does not declare ${missing.join(', ')}`)
    }
  }
})

/** A counter that finds every key over its limit, in every quota: each counted request is refused. */
const overTheLimit: RateLimitCounter = { hit: () => TE.right({ count: Number.MAX_SAFE_INTEGER, resetMs: 30_000 }) }

// Each answer is checked against the contract the instance serves (startApi): one whose status the
// operation does not declare fails the test.
Declared(
  'two Authorization headers, no key and a key over its quota are answered as declared on every operation, test target on',
  async () => {
    const api = await startApi({ sandboxes: memoryStore().dataSets, rateLimit: { limit: 1, counter: overTheLimit } })
    try {
      const operations = operationsOf(api.contract as unknown as Document).filter(({ authenticated }) => authenticated)
      assert.ok(operations.length >= 15, `${operations.length} operations`)
      for (const { method, path } of operations) {
        const twice = await api.request(method, path, {
          key: false,
          headerLines: [
            ['Authorization', `Bearer ${TEST_KEY}`],
            ['Authorization', `Bearer ${TEST_KEY}`],
          ],
        })
        assertError(twice, 400, 'invalid_request')
        assertError(await api.request(method, path, { key: false }), 401, 'unauthorized')
        assertError(await api.request(method, path), 429, 'rate_limited')
      }
    } finally {
      await api.close()
    }
  },
)

Declared.run()
