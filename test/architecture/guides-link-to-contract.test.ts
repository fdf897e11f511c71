import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { readDocuments } from '../support/documents.js'

interface Contract {
  readonly paths: Record<string, { post: { responses: Record<string, { description: string }> } }>
  readonly components: {
    readonly parameters: { Limit: { schema: { default: number; minimum: number; maximum: number } } }
    readonly responses: Record<string, { description: string }>
    readonly schemas: { Error: { description: string } }
  }
}

interface Value {
  readonly fact: string
  /** How the value is written when a guide restates it, on one line. */
  readonly stated: RegExp
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every value below is read from docs/openapi.yaml, so the check follows the contract when it changes. */
const contractValues = (contract: Contract): ReadonlyArray<Value> => {
  const { parameters, responses, schemas } = contract.components
  const table = [...schemas.Error.description.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)]
  assert.ok(table.length > 10, 'the Error table of the contract was not found')
  const codes = table.map(([, code, status]): Value => {
    const c = escape(`${code}`)
    return {
      fact: `the status of ${code}, ${status}`,
      stated: new RegExp(`\\b${status}\\b[^.\\n]{0,12}\`?${c}\\b|\\b${c}\`?[^.\\n]{0,12}\\b${status}\\b`),
    }
  })
  const { default: byDefault, minimum, maximum } = parameters.Limit.schema
  const bodyBytes = /\((\d+) bytes\)/.exec(responses.PayloadTooLarge?.description ?? '')?.[1]
  assert.ok(bodyBytes !== undefined, 'the body limit of the contract was not found')
  const retryAfter = (description: string | undefined, name: string): Value => {
    const seconds = /seconds, always (\d+)\b/.exec(description ?? '')?.[1]
    assert.ok(seconds !== undefined, `the Retry-After of ${name} was not found`)
    return {
      fact: `the Retry-After of ${name}, ${seconds}`,
      stated: new RegExp(`Retry-After\`?(?::| of| is)? \`?${seconds}\\b`, 'i'),
    }
  }
  const window = /the current (\d+)-second window/.exec(responses.RateLimited?.description ?? '')?.[1]
  assert.ok(window !== undefined, 'the rate-limit window of the contract was not found')
  return [
    ...codes,
    {
      fact: `the default page size, ${byDefault}`,
      stated: new RegExp(
        `\\bdefaults? (?:is |of |to )?\`?${byDefault}\\b|\\b${byDefault}\`? by default\\b|\\bdefault:? ${byDefault}\\b`,
        'i',
      ),
    },
    {
      fact: `the page size bounds, ${minimum} to ${maximum}`,
      stated: new RegExp(`\\b${minimum}(?: to |\\.\\.|–)${maximum}\\b|\\b(?:at most|maximum:?|up to) \`?${maximum}\\b(?! ms| s\\b)`, 'i'),
    },
    {
      fact: `the body limit, ${bodyBytes} bytes`,
      stated: new RegExp(`\\b${bodyBytes}\\b|\\b${Number(bodyBytes) / 1048576} MiB\\b`),
    },
    retryAfter(responses.ServiceUnavailable?.description, 'a 503'),
    retryAfter(contract.paths['/pets']?.post.responses['409']?.description, 'a 409'),
    { fact: `the rate-limit window, ${window} s`, stated: new RegExp(`\\b${window}-second window|\\b${window} s(?:econds?)? window`, 'i') },
  ]
}

/** The guides show tasks and link to the contract (docs/guides/settings.md documents the settings, whose defaults it owns). */
const isGuide = (path: string): boolean => path === 'README.md' || (path.startsWith('docs/guides/') && path !== 'docs/guides/settings.md')

const Guides = suite('Guides link to the contract for the values it owns')

Guides('no guide restates an error code’s status, a limit, a default, a Retry-After or the rate-limit window', () => {
  const contract = loadOpenApiDocument() as unknown as Contract
  const values = contractValues(contract)
  const guides = readDocuments().filter(({ path }) => isGuide(path))
  assert.ok(guides.length > 5)
  const restated = guides.flatMap(({ path, text }) =>
    text
      .split('\n')
      .flatMap((line, index) => values.filter(({ stated }) => stated.test(line)).map(({ fact }) => `${path}:${index + 1}: ${fact}`)),
  )
  assert.equal(restated, [])
})

Guides('finds a restated value', () => {
  const contract = loadOpenApiDocument() as unknown as Contract
  const values = contractValues(contract)
  for (const line of ['a 404 `not_found`', 'retry after Retry-After: 5', '`limit` is 20 by default', 'limits of 1048576 bytes']) {
    assert.ok(
      values.some(({ stated }) => stated.test(line)),
      line,
    )
  }
  assert.not.ok(values.some(({ stated }) => stated.test('see [errors](../openapi.yaml)')))
})

Guides.run()
