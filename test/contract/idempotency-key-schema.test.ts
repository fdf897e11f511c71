import fc from 'fast-check'
import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { idempotencyKeyOf } from '../../adapters/http/fingerprint.js'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { petUseCases } from '../../src/domain/use-cases.js'

interface StringSchema {
  readonly minLength: number
  readonly maxLength: number
  readonly pattern: string
}

const schema = (loadOpenApiDocument() as { components: { parameters: { IdempotencyKey: { schema: StringSchema } } } }).components.parameters
  .IdempotencyKey.schema

/** What a client (or a test suite generated from the document) reads: JSON Schema counts code points; Ajv compiles with `u`. */
const documentAccepts = (value: string): boolean =>
  [...value].length >= schema.minLength && [...value].length <= schema.maxLength && new RegExp(schema.pattern, 'u').test(value)

/** What the service decides, through the code createPet runs: the header's key, then the use case's check. */
const serviceAccepts = async (value: string): Promise<boolean> => {
  const { createPetIdempotently } = petUseCases({ pets: memoryPetRepository(), idempotency: memoryIdempotencyStore() })
  const result = await createPetIdempotently({
    client: 'client',
    key: idempotencyKeyOf(value),
    fingerprint: 'f',
    body: { name: 'Rex', categoryId: 1 },
  })()
  return !(E.isLeft(result) && result.left._tag === 'InvalidParameter')
}

/** Mostly visible ASCII, with the characters that decide the form or are refused. */
const keyCharacter = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  { weight: 2, arbitrary: fc.constant('"') },
  { weight: 1, arbitrary: fc.constantFrom('\\', ' ', '\t', '\u007f', 'é', '\u{1F600}') },
)
/** Short keys and keys around the limit of 255 (254 to 258 with the quotes). */
const keyLength = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 252, max: 258 }))
const text = keyLength.chain((length) => fc.string({ unit: keyCharacter, minLength: length, maxLength: length }))
const headerValue = fc.oneof(
  text,
  text.map((inside) => `"${inside}"`),
)

const KeySchema = suite('The Idempotency-Key schema')

KeySchema('accepts exactly the values the service accepts, bare or quoted, at every length around 255', async () => {
  await fc.assert(
    fc.asyncProperty(headerValue, async (value) => {
      assert.is(documentAccepts(value), await serviceAccepts(value), JSON.stringify(value))
    }),
    { numRuns: 2000 },
  )
})

KeySchema('decides the edge cases as the service does', async () => {
  const cases: Array<[string, boolean]> = [
    ['a'.repeat(255), true],
    ['a'.repeat(256), false],
    ['a'.repeat(257), false],
    [`"${'a'.repeat(255)}"`, true],
    [`"${'a'.repeat(256)}"`, false],
    ['""', false],
    ['"', true],
    ['"a"', true],
    ['"a\\b"', true],
    ['a b', false],
  ]
  for (const [value, accepted] of cases) {
    assert.is(await serviceAccepts(value), accepted, `service: ${value.slice(0, 12)}… (${value.length})`)
    assert.is(documentAccepts(value), accepted, `document: ${value.slice(0, 12)}… (${value.length})`)
  }
})

KeySchema.run()
