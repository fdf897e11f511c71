import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { nestsDeeperThan, withRoundedIntegersAsText } from '../../adapters/http/json-checks.js'
import { denotesInteger, NumberText } from '../../src/domain/integer-text.js'

/**
 * The checks around the body parser, against references: exact arithmetic on BigInt for the literal
 * rule, generated JSON and its value for finding a member's literal and for the nesting depth.
 */
const JsonChecks = suite('JSON body checks: integer literals, rounded integers, nesting depth')

const RUNS = 2000

/** JSON text with random whitespace wherever JSON allows it. */
const spaced = (value: unknown, spaces: string): string => JSON.stringify(value, null, spaces) ?? 'null'

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

JsonChecks('denotesInteger agrees with exact arithmetic on any literal', () => {
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

/** Container depth: a top-level array or object is 1. */
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0

JsonChecks(
  'withRoundedIntegersAsText keeps as text exactly the literals the parse rounds to an integer they do not denote, at any depth',
  () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(literal, fc.jsonValue({ maxDepth: 2 })), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('', ' ', '\n  '),
        (members, spaces) => {
          // Each literal in a member of its own, beside any JSON (strings holding number-like text among it).
          const text = `[${members.map(([number, other], index) => `{"n${index}":${number.text},"o":${spaced(other, spaces)},"s":"${number.text}"}`).join(',')}]`
          const expected = members.map(([number]) =>
            Number.isInteger(Number(number.text)) && !isIntegerExactly(number) ? new NumberText(number.text) : Number(number.text),
          )
          const rewritten = withRoundedIntegersAsText(text)
          const read = (rewritten ?? JSON.parse(text)) as ReadonlyArray<Record<string, unknown>>
          assert.equal(
            read.map((member, index) => member[`n${index}`]),
            expected,
            text,
          )
          assert.equal(
            read.map((member) => [member.o, member.s]),
            (JSON.parse(text) as ReadonlyArray<Record<string, unknown>>).map((member) => [member.o, member.s]),
          )
          assert.is(
            rewritten === undefined,
            expected.every((value, index) => Object.is(value, Number(members[index]?.[0].text))),
            text,
          )
        },
      ),
      { numRuns: RUNS },
    )
    assert.equal(withRoundedIntegersAsText('0.99999999999999999'), new NumberText('0.99999999999999999'))
    assert.is(withRoundedIntegersAsText('{"a":"0.99999999999999999","b":1.0}'), undefined)
  },
)

JsonChecks('nestsDeeperThan counts arrays and objects in JSON text, a top-level one as one level, never inside strings', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom('', ' ', '\n\t'), (value, max, spaces) => {
      const text = spaced(value, spaces)
      assert.is(nestsDeeperThan(text, max), depthOf(value) > max, text)
    }),
    { numRuns: RUNS },
  )
  assert.not.ok(nestsDeeperThan('{"a":"[[[[\\"{{{{"}', 2))
  assert.ok(nestsDeeperThan(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 64), 'a hundred thousand levels are refused')
})

JsonChecks.run()
