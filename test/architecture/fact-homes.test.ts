import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { KEY_IN_USE_RETRY_AFTER_SECONDS, RETRY_AFTER_SECONDS } from '../../adapters/http/error-response.js'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { LIMIT_DEFAULT, LIMIT_MAX } from '../../src/domain/list-pets.js'
import { DEFAULT_MAX_BODY_BYTES } from '../../src/main/config.js'
import { readDocuments } from '../support/documents.js'

/** How each fact a client sees is written when it is stated (case-insensitive). */
const FACTS: ReadonlyArray<{ readonly fact: string; readonly stated: RegExp }> = [
  { fact: 'the default body limit, 1 MiB', stated: /\b1 MiB\b|\b1048576\b|\b1,048,576\b/i },
  {
    fact: 'the default page size, 20',
    stated: /\bdefault:? 20\b|\bat most 20 pets\b|\bpage of 20\b|\b20 by default\b|\bdefaults? (?:is |of |to )?20\b/i,
  },
  { fact: 'the largest page size, 100', stated: /\bmaximum: 100\b|\b1 to 100\b|\b1\.\.100\b/i },
  { fact: 'Retry-After of a 503, 5 seconds', stated: /Retry-After`?:? 5\b|seconds, always 5\b/i },
  { fact: 'Retry-After of a 409, 1 second', stated: /Retry-After`?:? 1\b|seconds, always 1\b/i },
  { fact: 'the fault names', stated: /`(?:fault=)?429`, `(?:fault=)?500`/ },
]

const Homes = suite('Each fact a client sees has one home in the docs')

Homes(
  'the body limit, the default and largest page sizes, each Retry-After and the fault names are stated in at most two documents',
  () => {
    const texts = readDocuments()
    assert.ok(texts.some(({ path }) => path === 'docs/openapi.yaml'))
    for (const { fact, stated } of FACTS) {
      // The contract is one document: docs/openapi.yaml and its overlay, the test target's part.
      const homes = [
        ...new Set(
          texts
            .filter(({ text }) => stated.test(text))
            .map(({ path }) => (path === 'docs/openapi-test-target.yaml' ? 'docs/openapi.yaml' : path)),
        ),
      ]
      assert.ok(homes.includes('docs/openapi.yaml'), `${fact}: not in the contract`)
      assert.ok(homes.length <= 2, `${fact} is stated in ${homes.length} documents: ${homes.join(', ')}`)
    }
  },
)

Homes('the contract states the values the code names', () => {
  const contract = loadOpenApiDocument() as {
    paths: Record<string, { post: { responses: Record<string, { description: string }> } }>
    components: {
      parameters: { Limit: { schema: { default: number; maximum: number } } }
      responses: Record<string, { description: string }>
    }
  }
  const { parameters, responses } = contract.components
  assert.is(parameters.Limit.schema.default, LIMIT_DEFAULT)
  assert.is(parameters.Limit.schema.maximum, LIMIT_MAX)
  assert.match(responses.PayloadTooLarge?.description ?? '', `(${DEFAULT_MAX_BODY_BYTES} bytes)`)
  assert.match(responses.ServiceUnavailable?.description ?? '', `seconds, always ${RETRY_AFTER_SECONDS}.`)
  const keyInUse = contract.paths['/pets']?.post.responses['409']?.description ?? ''
  assert.match(keyInUse, `seconds, always ${KEY_IN_USE_RETRY_AFTER_SECONDS}.`)
})

Homes.run()
