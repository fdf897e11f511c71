import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { apiSuite } from '../support/api-suite.js'

interface ValidatorModule {
  readonly Validator: new () => { validate: (document: object) => Promise<{ valid: boolean; errors?: unknown }> }
}

type Document = {
  servers: Array<{ url: string }>
  paths: Record<string, Record<string, { deprecated?: boolean; responses?: Record<string, unknown>; security?: unknown[] }>>
}

const Document = suite('docs/openapi.yaml')

Document('is a valid OpenAPI 3.1 document', async () => {
  const { Validator } = (await import('@seriousme/openapi-schema-validator')) as ValidatorModule
  const result = await new Validator().validate(loadOpenApiDocument())
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2))
})

Document('declares version 1.0.0, /v1 as first server and getPet as deprecated', () => {
  const document = loadOpenApiDocument() as unknown as Document & { info: { version: string } }
  assert.is(document.info.version, '1.0.0')
  assert.is(document.servers[0]?.url, '/v1')
  assert.equal(document.servers.slice(1).map((server) => server.url), ['{base_url}', '{staging_base_url}'])
  assert.is(document.paths['/pets/{petId}']?.get?.deprecated, true)
})

Document('has no default responses, so every status a client can get is declared', () => {
  const document = loadOpenApiDocument() as unknown as Document
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (typeof operation === 'object' && operation.responses !== undefined) {
        assert.not.ok('default' in operation.responses, `${method} ${path}`)
      }
    }
  }
})

Document.run()

const Served = apiSuite('GET /v1/openapi.json')

Served('serves the document as JSON without authentication', async ({ api }) => {
  const response = await api.request('GET', '/v1/openapi.json', { key: false })
  assert.is(response.status, 200)
  assert.equal(response.body, loadOpenApiDocument())
})

Served.run()
