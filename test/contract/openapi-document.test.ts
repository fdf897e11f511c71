import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadOpenApiDocument, mergeOverlay } from '../../adapters/http/openapi-document.js'
import { testTargetContract } from '../../adapters/test-target/contract.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { startApi } from '../support/start-api.js'

interface ValidatorModule {
  readonly Validator: new () => { validate: (document: object) => Promise<{ valid: boolean; errors?: unknown }> }
}

interface Operation {
  readonly operationId?: string
  readonly deprecated?: boolean
  readonly parameters?: ReadonlyArray<{ readonly $ref?: string }>
  readonly responses?: Record<string, { readonly $ref?: string; readonly headers?: Record<string, unknown> }>
}

interface Document {
  readonly info: { readonly version: string }
  readonly servers: ReadonlyArray<{ readonly url: string }>
  readonly tags: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  readonly paths: Record<string, Record<string, Operation | string>>
  readonly components: Record<string, Record<string, { readonly description?: string; readonly headers?: Record<string, unknown> }>>
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const PET_OPERATIONS = ['listPets', 'createPet', 'getPet']
const PREFER = '#/components/parameters/Prefer'
const PREFERENCE_APPLIED = '#/components/headers/PreferenceApplied'

/** The configurations an instance can have (with the test target on or off), with the app options that give them. */
const CONFIGURATIONS: ReadonlyArray<{
  readonly name: string
  readonly testTarget: boolean
  readonly options: Parameters<typeof startApi>[0]
}> = [
  { name: 'default', testTarget: false, options: {} },
  { name: 'test target', testTarget: true, options: { sandboxes: memoryStore().dataSets } },
]

const served = (testTarget: boolean): Document =>
  (testTarget ? testTargetContract(loadOpenApiDocument()) : loadOpenApiDocument()) as unknown as Document

/** `METHOD path operationId` of every operation. */
const operationsOf = (document: Document): string[] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => typeof item[method] === 'object').map(
      (method) => `${method.toUpperCase()} ${path} ${(item[method] as Operation).operationId ?? '?'}`,
    ),
  )

const petOperations = (document: Document): Operation[] =>
  Object.values(document.paths).flatMap((item) =>
    Object.values(item).filter(
      (operation): operation is Operation => typeof operation === 'object' && PET_OPERATIONS.includes(operation.operationId ?? ''),
    ),
  )

/** The header names a response declares, following its `$ref`. */
const responseHeaders = (
  document: Document,
  response: { readonly $ref?: string; readonly headers?: Record<string, unknown> },
): Record<string, unknown> =>
  response.$ref === undefined
    ? (response.headers ?? {})
    : (document.components.responses?.[response.$ref.split('/').at(-1) ?? '']?.headers ?? {})

const keysOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(keysOf)
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, field]) => [key, ...keysOf(field)])
}

const Derivation = suite('servedOpenApiDocument: the contract each configuration serves')

Derivation('by default, only listPets, createPet, getPet and the document itself, with no trace of the test target', () => {
  const document = served(false)
  assert.equal(operationsOf(document), [
    'GET /pets listPets',
    'POST /pets createPet',
    'GET /pets/{petId} getPet',
    'GET /openapi.json getOpenApiDocument',
  ])
  assert.equal(
    document.tags.map((tag) => tag.name),
    ['pets', 'contract'],
  )
  assert.not.match(JSON.stringify(document), /Prefer|Preference|[Ss]andbox|fault=|x-petstore-/)
})

Derivation(
  'with the test target, the operations that make, end and reset sandboxes, their clock, the journal, its count, the report and the fault script too, and ids are described per sandbox',
  () => {
    const document = served(true)
    for (const operation of ['POST /sandboxes createSandbox', 'DELETE /sandbox deleteSandbox', 'POST /sandbox/reset resetSandbox'])
      assert.ok(operationsOf(document).includes(operation), operation)
    assert.ok(operationsOf(document).includes('GET /sandbox/requests listSandboxRequests'))
    assert.ok(operationsOf(document).includes('GET /sandbox/requests/count countSandboxRequests'))
    assert.ok(operationsOf(document).includes('GET /sandbox/report getSandboxReport'))
    assert.ok(operationsOf(document).includes('GET /sandbox/clock getSandboxClock'))
    assert.ok(operationsOf(document).includes('POST /sandbox/clock advanceSandboxClock'))
    for (const method of ['PUT', 'GET', 'DELETE'])
      assert.ok(operationsOf(document).some((operation) => operation.startsWith(`${method} /sandbox/faults `)))
    assert.is(operationsOf(document).length, 16)
    assert.ok(document.tags.some((tag) => tag.name === 'sandbox'))
    assert.match(document.components.schemas?.PetId?.description ?? '', 'sandbox')
  },
)

Derivation('with the test target, every pet operation takes Prefer and may answer Preference-Applied, 429, 500, 502, 503 and 504', () => {
  const document = served(true)
  for (const operation of petOperations(document)) {
    assert.ok(
      operation.parameters?.some((parameter) => parameter.$ref === PREFER),
      operation.operationId,
    )
    for (const status of ['429', '500', '502', '503', '504'])
      assert.ok(operation.responses?.[status] !== undefined, `${operation.operationId} ${status}`)
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      // Authentication comes first: a 401 never applied a preference.
      const declared =
        (responseHeaders(document, response)['Preference-Applied'] as { $ref?: string } | undefined)?.$ref === PREFERENCE_APPLIED
      assert.is(declared, status !== '401', `${operation.operationId} ${status}`)
    }
  }
  assert.match(document.components.responses?.RateLimited?.description ?? '', 'fault=429')
})

Derivation(
  'every configuration serves a valid OpenAPI 3.1 document, every reference resolving and every component used, with no x-petstore- extension',
  async () => {
    const { Validator } = (await import('@seriousme/openapi-schema-validator')) as ValidatorModule
    for (const { name, testTarget } of CONFIGURATIONS) {
      const document = served(testTarget)
      const result = await new Validator().validate(document)
      assert.ok(result.valid, `${name}: ${JSON.stringify(result.errors, null, 2)}`)
      assert.not.ok(
        keysOf(document).some((key) => key.startsWith('x-petstore-')),
        name,
      )
      const text = JSON.stringify(document)
      for (const [kind, components] of Object.entries(document.components)) {
        if (kind === 'securitySchemes') continue
        for (const component of Object.keys(components))
          assert.ok(text.includes(`"#/components/${kind}/${component}"`), `${name}: ${kind}/${component} is not used`)
      }
    }
  },
)

Derivation('keeps version 1.0.0, /v1 as first server, getPet deprecated and no default response in every configuration', () => {
  for (const { name, testTarget } of CONFIGURATIONS) {
    const document = served(testTarget)
    assert.is(document.info.version, '1.0.0')
    assert.equal(
      document.servers.map((server) => server.url),
      ['/v1', '{base_url}', '{staging_base_url}'],
    )
    assert.is((document.paths['/pets/{petId}']?.get as Operation).deprecated, true)
    for (const operation of Object.values(document.paths).flatMap((item) => Object.values(item))) {
      if (typeof operation === 'object') assert.not.ok('default' in (operation.responses ?? {}), `${name} ${operation.operationId ?? '?'}`)
    }
  }
})

Derivation('leaves the document it is given unchanged', () => {
  const source = loadOpenApiDocument()
  testTargetContract(source)
  assert.equal(source, loadOpenApiDocument())
})

Derivation('an overlay merges objects member by member, adds the items a list lacks, replaces other values, and removes nothing', () => {
  const base = { a: { keep: 1, replace: 'old' }, list: ['x', { y: 1 }], scalar: 1 }
  const overlay = { a: { replace: 'new', add: true }, list: [{ y: 1 }, 'z'], more: [1] }
  assert.equal(mergeOverlay(base, overlay), {
    a: { keep: 1, replace: 'new', add: true },
    list: ['x', { y: 1 }, 'z'],
    scalar: 1,
    more: [1],
  })
  assert.equal(base, { a: { keep: 1, replace: 'old' }, list: ['x', { y: 1 }], scalar: 1 })
})

Derivation.run()

const Caching = suite('Cache-Control in docs/openapi.yaml')

Caching('names, wherever it states the rule, exactly the operations whose answers are private, no-cache', () => {
  const document = served(true)
  const operations = Object.values(document.paths).flatMap((item) =>
    Object.values(item).filter((operation): operation is Operation => typeof operation === 'object'),
  )
  const revalidating = operations
    .filter((operation) =>
      Object.values(operation.responses ?? {}).some(
        (response) =>
          (response.headers?.['Cache-Control'] as { $ref?: string } | undefined)?.$ref === '#/components/headers/CacheControlRevalidate',
      ),
    )
    .map((operation) => operation.operationId ?? '?')
  assert.equal(revalidating, ['listPets', 'getPet'])
  const rules = document.tags
    .find((tag) => tag.name === 'contract')
    ?.description?.split(/\n(?=- )/)
    .find((item) => item.includes('**Headers on every response:**'))
  const headers = document.components.headers ?? {}
  for (const [where, text] of [
    ['the contract tag', rules],
    ['CacheControl', headers.CacheControl?.description],
    ['CacheControlRevalidate', headers.CacheControlRevalidate?.description],
  ]) {
    const named = operations.map((operation) => operation.operationId ?? '?').filter((id) => (text ?? '').includes(`\`${id}\``))
    assert.equal(named, revalidating, where)
  }
})

Caching.run()

/** Every `pattern` in a part of the document, its feature overrides included. */
const patternsOf = (node: unknown): string[] => {
  if (Array.isArray(node)) return node.flatMap(patternsOf)
  if (typeof node !== 'object' || node === null) return []
  return Object.entries(node).flatMap(([key, value]) => (key === 'pattern' && typeof value === 'string' ? [value] : patternsOf(value)))
}

/**
 * A pattern made of the tokens JSON Schema recommends for interoperability (characters, classes and
 * ranges, quantifiers, `^`, `$`, `(...)`, `|`): an escape only of punctuation, and no `(?` group.
 * Not these: lookahead and lookbehind, `(?:`, named groups, `\d`, `\x21`, `\p{…}`, back-references,
 * which validators and contract-test generators in other languages refuse or read otherwise.
 */
const INTEROPERABLE_PATTERN = /^(?:\\[^A-Za-z0-9]|\((?!\?)|[^\\(])*$/

const Patterns = suite('The patterns of docs/openapi.yaml and its overlay')

Patterns('use only the regex tokens JSON Schema recommends for interoperability: no lookahead, no (?:, no \\x escape', () => {
  const patterns = patternsOf(testTargetContract(loadOpenApiDocument()))
  assert.ok(patterns.length > 0)
  for (const pattern of patterns) assert.match(pattern, INTEROPERABLE_PATTERN, pattern)
})

Patterns.run()

const Served = suite('GET /v1/openapi.json')

Served('serves, without authentication, the document of its configuration', async () => {
  for (const { name, testTarget, options } of CONFIGURATIONS) {
    const api = await startApi(options)
    try {
      const response = await api.request('GET', '/v1/openapi.json', { key: false })
      assert.is(response.status, 200, name)
      assert.equal(response.body, served(testTarget), name)
      assert.equal(response.body, api.contract, `${name}: the document its responses are checked against`)
    } finally {
      await api.close()
    }
  }
})

Served.run()
