import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as t from 'io-ts'
import { describeErrors, ruleCodec } from '../../src/domain/codec.js'
import { JsonInteger } from '../../src/domain/integer-text.js'
import { echoed } from '../http/error-response.js'
import { FORCED_STATUSES } from './failures.js'
import { PET_OPERATIONS, type PetOperation } from '../http/routes.js'
import { MAX_SEED } from './seeded-random.js'

/** The longest delay a client may ask for, with `Prefer: delay=<milliseconds>` or a rule's `delay`. */
export const MAX_DELAY_MS = 10_000
/** The largest `Retry-After` a forced 429 or 503 may be given. */
export const MAX_RETRY_AFTER_SECONDS = 3600
/** How many requests one rule may apply to. */
const MAX_RULE_TIMES = 1000
/** How many rules one script may hold. */
const MAX_SCRIPT_RULES = 100

/** Faults that act on the connection instead of answering an Error. */
export const NETWORK_FAULTS = ['reset', 'reset-after', 'truncated'] as const
/** Every fault a sandbox may ask for, in `Prefer: fault=NAME` and in a script rule. */
export const FAULT_NAMES = [...FORCED_STATUSES.map(String), ...NETWORK_FAULTS] as ReadonlyArray<string>
export type FaultName = `${(typeof FORCED_STATUSES)[number]}` | (typeof NETWORK_FAULTS)[number]

export const OPERATIONS = PET_OPERATIONS
export type Operation = PetOperation

const oneOf = <A extends string>(name: string, values: ReadonlyArray<A>) =>
  ruleCodec<A>(name, (input) =>
    typeof input === 'string' && values.includes(input as A) ? undefined : `must be one of ${values.join(', ')}`,
  )

const integerIn = (name: string, min: number, max: number) => {
  const problem = `must be an integer from ${min} to ${max}`
  return JsonInteger(
    name,
    () => problem,
    (integer) => (integer >= min && integer <= max ? undefined : problem),
  )
}

/** The largest `after` a rule may have. */
const MAX_RULE_AFTER = 1_000_000
/** How long a rule's `when` may be, written as JSON: a script stays small in memory whatever it matches. */
const MAX_WHEN_CHARS = 1024

type JsonObject = Readonly<Record<string, unknown>>

export const isJsonObject = (input: unknown): input is JsonObject => typeof input === 'object' && input !== null && !Array.isArray(input)

/** A header name is a token (RFC 9110 §5.1). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** What is wrong with `when.headers`: names of real headers, each once whatever its case, with string values. */
const headersProblem = (input: unknown): string | undefined => {
  if (!isJsonObject(input)) return 'must be an object of header names and their values'
  const seen = new Set<string>()
  for (const [name, value] of Object.entries(input)) {
    if (!HEADER_NAME.test(name)) return `${echoed(JSON.stringify(name))} is not a header name`
    const lower = name.toLowerCase()
    // Every request of a sandbox carries its key: matching it would only put a secret in the script.
    if (lower === 'authorization') return 'authorization cannot be matched: it carries the API key'
    if (seen.has(lower)) return `${echoed(lower)} is named twice (header names are case-insensitive)`
    seen.add(lower)
    if (typeof value !== 'string') return `${echoed(name)}: must be a string`
  }
  return undefined
}

// Named for the message that refuses a `when` which is not an object ("when: must be an object ...").
const When = t.partial(
  {
    headers: ruleCodec<Readonly<Record<string, string>>>('HeaderMatch', headersProblem),
    body: ruleCodec<JsonObject>('BodyMatch', (input) =>
      isJsonObject(input) ? undefined : 'must be an object of top-level body members and their values',
    ),
  },
  'an object with headers, body or both',
)

const chanceCodec = ruleCodec<number>('Chance', (input) =>
  typeof input === 'number' && input >= 0 && input <= 1 ? undefined : 'must be a number from 0 to 1',
)

/**
 * One rule: of the sandbox's requests of `operation` that match `when`, the first `after` pass
 * untouched; then each gets `fault`, `delay` or both (with `chance`, at random, drawn from `seed`),
 * `times` times.
 */
export const FaultRule = t.intersection([
  t.type({
    operation: oneOf<Operation>('Operation', OPERATIONS),
    times: integerIn('Times', 1, MAX_RULE_TIMES),
  }),
  t.partial({
    when: When,
    fault: oneOf<FaultName>('FaultName', FAULT_NAMES as ReadonlyArray<FaultName>),
    retryAfter: integerIn('RetryAfter', 0, MAX_RETRY_AFTER_SECONDS),
    delay: integerIn('Delay', 0, MAX_DELAY_MS),
    after: integerIn('After', 0, MAX_RULE_AFTER),
    chance: chanceCodec,
    seed: integerIn('Seed', 0, MAX_SEED),
  }),
])
export type FaultRule = t.TypeOf<typeof FaultRule>

const RULE_FIELDS: ReadonlyArray<string> = ['operation', 'when', 'fault', 'times', 'retryAfter', 'delay', 'after', 'chance', 'seed']
const NOT_A_FIELD = `is not a field of a rule (${RULE_FIELDS.join(', ')})`
const WHEN_FIELDS: ReadonlyArray<string> = ['headers', 'body']
const NOT_A_WHEN_FIELD = `is not a field of when (${WHEN_FIELDS.join(', ')})`

/** Each field a rule (or its `when`) does not know, named by its position: an unknown field is a mistake, never ignored. */
const unknownFields = (rules: ReadonlyArray<unknown>): ReadonlyArray<string> =>
  rules.flatMap((rule, index) =>
    isJsonObject(rule)
      ? [
          ...Object.keys(rule)
            .filter((field) => !RULE_FIELDS.includes(field))
            .map((field) => `[${index}].${echoed(field)}: ${NOT_A_FIELD}`),
          ...(isJsonObject(rule.when)
            ? Object.keys(rule.when)
                .filter((field) => !WHEN_FIELDS.includes(field))
                .map((field) => `[${index}].when.${echoed(field)}: ${NOT_A_WHEN_FIELD}`)
            : []),
        ]
      : [`[${index}]: must be an object`],
  )

/** What is wrong with a rule whose fields are each right: how they go together. */
const combinationProblems = (rule: FaultRule, index: number): ReadonlyArray<string> => [
  ...(rule.fault === undefined && rule.delay === undefined ? [`[${index}]: a rule needs a fault, a delay, or both`] : []),
  ...(rule.chance !== undefined && rule.seed === undefined ? [`[${index}].seed: is required with chance`] : []),
  ...(rule.seed !== undefined && rule.chance === undefined ? [`[${index}].seed: is only for chance`] : []),
  ...(rule.when?.body !== undefined && rule.operation !== 'createPet'
    ? [`[${index}].when.body: only createPet has a body (${rule.operation} has none)`]
    : []),
  ...(rule.when !== undefined && JSON.stringify(rule.when).length > MAX_WHEN_CHARS
    ? [`[${index}].when: must be at most ${MAX_WHEN_CHARS} characters of JSON`]
    : []),
]

/** A rule with only its known fields, in one order, header names in lower case: what GET answers. */
const normalized = ({ operation, when, fault, times, retryAfter, delay, after, chance, seed }: FaultRule): FaultRule => ({
  operation,
  ...(when === undefined
    ? {}
    : {
        when: {
          ...(when.headers === undefined
            ? {}
            : { headers: Object.fromEntries(Object.entries(when.headers).map(([name, value]) => [name.toLowerCase(), value])) }),
          ...(when.body === undefined ? {} : { body: when.body }),
        },
      }),
  ...(fault === undefined ? {} : { fault }),
  times,
  ...(retryAfter === undefined ? {} : { retryAfter }),
  ...(delay === undefined ? {} : { delay }),
  ...(after === undefined ? {} : { after }),
  ...(chance === undefined ? {} : { chance }),
  ...(seed === undefined ? {} : { seed }),
})

/** A script as PUT /v1/sandbox/faults takes it: a JSON array of rules, every problem named at once. */
export const decodeScript = (body: unknown): E.Either<ReadonlyArray<string>, ReadonlyArray<FaultRule>> => {
  if (!Array.isArray(body)) return E.left(['the body must be a JSON array of rules'])
  if (body.length > MAX_SCRIPT_RULES) return E.left([`a script holds at most ${MAX_SCRIPT_RULES} rules`])
  const unknown = unknownFields(body)
  if (unknown.length > 0) return E.left(unknown)
  // Each rule decoded apart, so that each problem is named by its rule's index, as the others are.
  const decoded = body.map((rule: unknown, index) =>
    pipe(
      FaultRule.decode(rule),
      E.mapLeft((errors) => describeErrors(errors).map((problem) => `[${index}].${problem}`)),
    ),
  )
  const problems = decoded.flatMap((rule) => (E.isLeft(rule) ? rule.left : []))
  const rules = decoded.flatMap((rule) => (E.isRight(rule) ? [rule.right] : []))
  if (problems.length > 0) return E.left(problems)
  const combined = rules.flatMap(combinationProblems)
  return combined.length > 0 ? E.left(combined) : E.right(rules.map(normalized))
}
