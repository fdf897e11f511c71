import fc from 'fast-check'
import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { denotesInteger, parseJsonText } from '../../adapters/http/json-text.js'

/**
 * The body parse against JSON.parse, the reference: on generated JSON and on generated near-JSON,
 * it must accept the same texts and give the same values, but for its three documented refusals
 * and readings (a `__proto__` key, nesting deeper than the limit, a non-integer literal whose
 * double is an integer). The literal rule is checked against exact arithmetic on BigInt.
 */
const JsonText = suite('parseJsonText: one parse of a request body, checked against JSON.parse')

const DEPTH = 64
const RUNS = 2000

const reference = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** Container depth as the parse counts it: a top-level array or object is 1. */
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0

const hasProtoKey = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (Object.prototype.hasOwnProperty.call(value, '__proto__') || Object.values(value).some(hasProtoKey))

/**
 * Equal as JSON.parse's value, but that a NaN of the parse stands where JSON.parse has an integer
 * (a literal like 5e-324000 that JSON.parse turns into 0); when NaN is due is checked apart, below.
 */
const sameReading = (parsed: unknown, expected: unknown): boolean => {
  if (typeof parsed === 'number' && Number.isNaN(parsed)) return Number.isInteger(expected)
  if (typeof parsed !== 'object' || parsed === null || typeof expected !== 'object' || expected === null)
    return Object.is(parsed, expected) || parsed === expected
  if (Array.isArray(parsed) !== Array.isArray(expected)) return false
  const keys = Object.keys(parsed)
  const expectedKeys = Object.keys(expected)
  if (keys.length !== expectedKeys.length || keys.some((key, index) => key !== expectedKeys[index])) return false
  return keys.every((key) => sameReading((parsed as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]))
}

const assertSameReading = (parsed: E.Either<string, unknown>, expected: unknown, text: string): void => {
  assert.ok(E.isRight(parsed), `refused ${JSON.stringify(text)}: ${E.isLeft(parsed) ? parsed.left : ''}`)
  assert.ok(sameReading(parsed.right, expected), `${JSON.stringify(text)} read as ${JSON.stringify(parsed.right)}`)
}

/** JSON text with random whitespace wherever JSON allows it. */
const spaced = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.constantFrom(' ', '\n', '\t', '\r', ''), { minLength: 1, maxLength: 4 }))
  .map(([value, spaces]) => JSON.stringify(value, null, spaces.join('')) ?? 'null')

/** Text near JSON: a valid text with one character deleted, replaced or inserted. */
const nearJson = fc
  .tuple(spaced, fc.nat(), fc.constantFrom('', '{', '}', '[', ']', ',', ':', '"', '\\', '-', '.', 'e', '0', '1', 'x', ' ', '\u0001'))
  .map(([text, at, char]) => {
    const index = at % (text.length + 1)
    return at % 3 === 0 ? text.slice(0, index) + char + text.slice(index) : text.slice(0, index) + char + text.slice(index + 1)
  })

JsonText('gives what JSON.parse gives on any JSON text', () => {
  fc.assert(
    fc.property(spaced, (text) => {
      const expected = reference(text)
      if (!expected.ok || hasProtoKey(expected.value)) return
      assertSameReading(parseJsonText(text, DEPTH), expected.value, text)
    }),
    { numRuns: RUNS },
  )
})

JsonText('accepts exactly the texts JSON.parse accepts, with the same values, on near-JSON and arbitrary text', () => {
  fc.assert(
    fc.property(fc.oneof(nearJson, fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 })), (text) => {
      const expected = reference(text)
      const parsed = parseJsonText(text, DEPTH)
      if (!expected.ok) {
        assert.ok(E.isLeft(parsed), `accepted ${JSON.stringify(text)}`)
        assert.match(E.isLeft(parsed) ? parsed.left : '', /^the body is not valid JSON: /)
      } else if (!hasProtoKey(expected.value)) assertSameReading(parsed, expected.value, text)
    }),
    { numRuns: RUNS * 5 },
  )
})

JsonText('refuses nesting deeper than the limit, and only that', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 200 }), fc.boolean(), (depth, objects) => {
      const text = objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`
      const parsed = parseJsonText(text, DEPTH)
      if (depth > DEPTH) assert.equal(parsed, E.left(`the body nests deeper than ${DEPTH} levels`))
      else assert.is(depthOf(E.isRight(parsed) ? parsed.right : undefined), depth)
    }),
  )
  assert.ok(E.isLeft(parseJsonText(`${'['.repeat(1_000_000)}`, DEPTH)), 'a million levels are refused without recursion')
})

JsonText('refuses a __proto__ key at any depth, however it is escaped', () => {
  for (const key of ['"__proto__"', '"\\u005f_proto__"', '"__pr\\u006fto__"']) {
    for (const text of [`{${key}:1}`, `{"a":[{"b":{${key}:{}}}]}`, `{"name":"Rex","categoryId":1,${key}:{"admin":true}}`]) {
      assert.equal(parseJsonText(text, DEPTH), E.left('the body is not valid JSON: a "__proto__" key is refused'), text)
    }
  }
  assert.equal(parseJsonText('{"__proto":1,"proto__":2,"x":"__proto__"}', DEPTH), E.right({ __proto: 1, proto__: 2, x: '__proto__' }))
})

/** A JSON number literal from its parts, with its exact value as digits × 10^scale. */
const literal = fc
  .record({
    negative: fc.boolean(),
    integer: fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,20}$/)),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
    exponent: fc.option(fc.integer({ min: -400, max: 400 }), { nil: undefined }),
    exponentSpelling: fc.constantFrom('e', 'E', 'e+', 'E+'),
  })
  .map(({ negative, integer, fraction, exponent, exponentSpelling }) => {
    const text =
      `${negative ? '-' : ''}${integer}${fraction === undefined ? '' : `.${fraction}`}` +
      (exponent === undefined ? '' : exponent < 0 ? `e${exponent}` : `${exponentSpelling}${exponent}`)
    return { text, digits: BigInt(integer + (fraction ?? '')), scale: (exponent ?? 0) - (fraction ?? '').length }
  })

/** Exact arithmetic: digits × 10^scale is an integer. */
const isIntegerExactly = ({ digits, scale }: { digits: bigint; scale: number }): boolean =>
  scale >= 0 || digits % 10n ** BigInt(-scale) === 0n

JsonText('denotesInteger agrees with exact arithmetic on any literal', () => {
  fc.assert(
    fc.property(literal, (number) => assert.is(denotesInteger(number.text), isIntegerExactly(number), number.text)),
    { numRuns: RUNS * 5 },
  )
  for (const [text, expected] of [
    ['1.0', true],
    ['1e2', true],
    ['120e-1', true],
    ['0.000e-999999999999999999999', true],
    ['1e99999999999999999999', true],
    ['1e-99999999999999999999', false],
    ['0.99999999999999999', false],
    ['1e-400', false],
    ['9007199254740990.9', false],
  ] as const) {
    assert.is(denotesInteger(text), expected, text)
  }
})

JsonText('reads a literal that is not an integer as NaN when its double is one, and every other number as JSON.parse does', () => {
  fc.assert(
    fc.property(literal, (number) => {
      const parsed = parseJsonText(`{"n":${number.text}}`, DEPTH)
      const reference = Number(number.text)
      const expected = Number.isInteger(reference) && !isIntegerExactly(number) ? NaN : reference
      assert.ok(E.isRight(parsed))
      assert.ok(Object.is((parsed.right as { n: number }).n, expected), `${number.text}: ${String((parsed.right as { n: number }).n)}`)
    }),
    { numRuns: RUNS * 5 },
  )
})

JsonText("gives JSON.parse's value for a megabyte of keys the service ignores", () => {
  const keys = Array.from({ length: 90_000 }, (_, index) => `"k${index}":0`).join(',')
  const text = `{"name":"Rex","categoryId":1,${keys}}`
  assert.equal(parseJsonText(text, DEPTH), E.right(JSON.parse(text)))
})

JsonText.run()
