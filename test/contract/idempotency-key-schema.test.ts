import fc from 'fast-check'
import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { idempotencyKeyOf } from '../../adapters/http/fingerprint.js'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { petUseCases } from '../../src/domain/use-cases.js'
import { aNewPet } from '../support/pet-builder.js'

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
  const { createPet } = petUseCases({ pets: memoryPetRepository(), idempotency: memoryIdempotencyStore() })
  const result = await createPet(aNewPet(), { client: 'client', key: idempotencyKeyOf(value), fingerprint: 'f' })()
  return !(E.isLeft(result) && result.left._tag === 'InvalidParameter')
}

/** The characters that decide the form (`"`, `\`) or are refused. */
const oddCharacter = fc.constantFrom('"', '\\', ' ', '\t', '\u007f', 'é', '\u{1F600}')
/** Visible ASCII but `"` and `\`: what a quoted key holds. */
const plainCharacter = fc
  .integer({ min: 0x21, max: 0x7e })
  .filter((code) => code !== 0x22 && code !== 0x5c)
  .map((code) => String.fromCharCode(code))
/** Mostly visible ASCII, with the characters that decide the form or are refused. */
const keyCharacter = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  { weight: 2, arbitrary: fc.constant('"') },
  { weight: 1, arbitrary: oddCharacter },
)
/** Short keys and keys around the limit of 255 (254 to 258 with the quotes). */
const keyLength = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 252, max: 258 }))
/** Text a quoted key may hold, with one odd character or none: long keys that are valid, or wrong in one place. */
const nearlyPlain = (length: number) =>
  fc
    .tuple(
      fc.array(plainCharacter, { minLength: length, maxLength: length }),
      fc.option(fc.tuple(fc.nat({ max: Math.max(0, length - 1) }), oddCharacter)),
    )
    .map(([characters, odd]) => (odd === null ? characters : characters.toSpliced(odd[0], 1, odd[1])).join(''))
const text = keyLength.chain((length) =>
  fc.oneof(fc.string({ unit: keyCharacter, minLength: length, maxLength: length }), nearlyPlain(length)),
)
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
    ['"a', true],
    ['"\\', true],
    [`"${'a'.repeat(254)}"`, true],
    [`"${'a'.repeat(253)}\\"`, false],
    [`"${'a'.repeat(254)}`, true],
  ]
  for (const [value, accepted] of cases) {
    assert.is(await serviceAccepts(value), accepted, `service: ${value.slice(0, 12)}… (${value.length})`)
    assert.is(documentAccepts(value), accepted, `document: ${value.slice(0, 12)}… (${value.length})`)
  }
})

KeySchema('decides every value of up to 4 characters of a, ", \\ and space as the service does', async () => {
  const values = ['']
  let longest = ['']
  for (let length = 1; length <= 4; length += 1) {
    longest = longest.flatMap((prefix) => ['a', '"', '\\', ' '].map((character) => prefix + character))
    values.push(...longest)
  }
  for (const value of values) assert.is(documentAccepts(value), await serviceAccepts(value), JSON.stringify(value))
})

KeySchema.run()
