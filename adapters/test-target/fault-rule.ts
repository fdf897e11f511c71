import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as t from 'io-ts'
import { describeErrors, ruleCodec } from '../../src/domain/codec.js'
import { echoed } from '../http/error-response.js'
import { FORCED_STATUSES } from './failures.js'
import { PET_OPERATIONS, type PetOperation } from '../http/routes.js'
import { given, HEADER_NAME, integerIn, isJsonObject, type JsonObject, lowerCased } from './rule-values.js'
import { ANSWER_FIELDS, answerProblems, normalizedAnswer, ScriptedAnswer } from './scripted-answer.js'
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
/** What the journal and the log name a rule's scripted answer by, as they name a fault. */
export const SCRIPTED_ANSWER = 'answer'
/** What a request was given instead of its operation's own answer: a fault, or a scripted answer. */
export type AppliedFault = FaultName | typeof SCRIPTED_ANSWER
/** Every value of a journal entry's `fault`, which its `fault` filter takes. */
export const APPLIED_FAULTS: ReadonlyArray<string> = [...FAULT_NAMES, SCRIPTED_ANSWER]

export const OPERATIONS = PET_OPERATIONS
export type Operation = PetOperation

const oneOf = <A extends string>(name: string, values: ReadonlyArray<A>) =>
  ruleCodec<A>(name, (input) =>
    typeof input === 'string' && values.includes(input as A) ? undefined : `must be one of ${values.join(', ')}`,
  )

/** The largest `after` a rule may have. */
const MAX_RULE_AFTER = 1_000_000
/** How long a rule's `when` may be, written as JSON: a script stays small in memory whatever it matches. */
const MAX_WHEN_CHARS = 1024

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

/** The parameters of each operation's path and query, by the names the contract gives them: what `when` may match. */
const PATH_PARAMETERS: Readonly<Record<Operation, ReadonlyArray<string>>> = { listPets: [], createPet: [], getPet: ['petId'] }
const QUERY_PARAMETERS: Readonly<Record<Operation, ReadonlyArray<string>>> = {
  listPets: ['limit', 'status', 'after'],
  createPet: [],
  getPet: [],
}
/** What is wrong with `when.params` or `when.query`: parameter names, each with the exact text it must have (which of them the operation has is checked with it). */
const parametersProblem = (input: unknown): string | undefined => {
  if (!isJsonObject(input)) return 'must be an object of parameter names and their values'
  const notText = Object.entries(input).find(([, value]) => typeof value !== 'string')
  return notText === undefined ? undefined : `${echoed(notText[0])}: must be a string, the parameter's exact value`
}

// Named for the message that refuses a `when` which is not an object ("when: must be an object ...").
const When = t.partial(
  {
    headers: ruleCodec<Readonly<Record<string, string>>>('HeaderMatch', headersProblem),
    body: ruleCodec<JsonObject>('BodyMatch', (input) =>
      isJsonObject(input) ? undefined : 'must be an object of top-level body members and their values',
    ),
    params: ruleCodec<Readonly<Record<string, string>>>('ParamsMatch', parametersProblem),
    query: ruleCodec<Readonly<Record<string, string>>>('QueryMatch', parametersProblem),
  },
  'an object with headers, body, params or query',
)

const chanceCodec = ruleCodec<number>('Chance', (input) =>
  typeof input === 'number' && input >= 0 && input <= 1 ? undefined : 'must be a number from 0 to 1',
)

/**
 * One rule: of the sandbox's requests of `operation` that match `when`, the first `after` pass
 * untouched; then each gets `fault` or `answer`, `delay`, or a delay with either (with `chance`, at
 * random, drawn from `seed`), `times` times, or until the script is cleared.
 */
export const FaultRule = t.intersection([
  t.type({
    operation: oneOf<Operation>('Operation', OPERATIONS),
  }),
  t.partial({
    when: When,
    fault: oneOf<FaultName>('FaultName', FAULT_NAMES as ReadonlyArray<FaultName>),
    answer: ScriptedAnswer,
    afterOperation: ruleCodec<boolean>('AfterOperation', (input) => (typeof input === 'boolean' ? undefined : 'must be true or false')),
    times: integerIn('Times', 1, MAX_RULE_TIMES),
    retryAfter: integerIn('RetryAfter', 0, MAX_RETRY_AFTER_SECONDS),
    delay: integerIn('Delay', 0, MAX_DELAY_MS),
    after: integerIn('After', 0, MAX_RULE_AFTER),
    chance: chanceCodec,
    seed: integerIn('Seed', 0, MAX_SEED),
  }),
])
export type FaultRule = t.TypeOf<typeof FaultRule>

const RULE_FIELDS: ReadonlyArray<string> = [
  'operation',
  'when',
  'fault',
  'answer',
  'afterOperation',
  'times',
  'retryAfter',
  'delay',
  'after',
  'chance',
  'seed',
]
const WHEN_FIELDS: ReadonlyArray<string> = ['headers', 'body', 'params', 'query']

/** The fields of `object` not among `known`, each named by its path: an unknown field is a mistake, never ignored. */
const unknownOf = (object: unknown, path: string, known: ReadonlyArray<string>, of: string): ReadonlyArray<string> =>
  isJsonObject(object)
    ? Object.keys(object)
        .filter((field) => !known.includes(field))
        .map((field) => `${path}${echoed(field)}: is not a field of ${of} (${known.join(', ')})`)
    : []

/** Each field a rule (or its `when`, or its `answer`) does not know, named by its position. */
const unknownFields = (rules: ReadonlyArray<unknown>): ReadonlyArray<string> =>
  rules.flatMap((rule, index) =>
    isJsonObject(rule)
      ? [
          ...unknownOf(rule, `[${index}].`, RULE_FIELDS, 'a rule'),
          ...unknownOf(rule.when, `[${index}].when.`, WHEN_FIELDS, 'when'),
          ...unknownOf(rule.answer, `[${index}].answer.`, ANSWER_FIELDS, 'answer'),
        ]
      : [`[${index}]: must be an object`],
  )

/** The faults whose answer carries a `Retry-After`, which a rule's `retryAfter` sets. */
const RETRY_AFTER_FAULTS: ReadonlyArray<FaultName> = ['429', '503']

/** What is wrong with a rule's `retryAfter`: it is only for a fault whose answer has a Retry-After. */
const retryAfterProblem = (rule: FaultRule): string | undefined => {
  if (rule.retryAfter === undefined || (rule.fault !== undefined && RETRY_AFTER_FAULTS.includes(rule.fault))) return undefined
  const only = `only for a fault ${RETRY_AFTER_FAULTS.join(' or ')}`
  if (rule.answer !== undefined) return `${only}: an answer sets Retry-After in its headers`
  if (rule.fault === undefined) return `${only}: this rule has no fault`
  return `${only}: fault ${rule.fault} answers no Retry-After`
}

/** What is wrong with `when`'s parameters for `operation`: only those it has. */
const parameterProblems = (rule: FaultRule, at: string): ReadonlyArray<string> =>
  (
    [
      ['params', 'path', PATH_PARAMETERS[rule.operation], rule.when?.params],
      ['query', 'query', QUERY_PARAMETERS[rule.operation], rule.when?.query],
    ] as const
  ).flatMap(([field, kind, names, given]) => {
    const others = Object.keys(given ?? {}).filter((name) => !names.includes(name))
    if (given === undefined || others.length === 0) return []
    return names.length === 0
      ? [`${at}.when.${field}: ${rule.operation} has no ${kind} parameters`]
      : [
          `${at}.when.${field}: ${others.map((name) => echoed(JSON.stringify(name))).join(', ')} is not a ${kind} parameter of ${rule.operation} (${names.join(', ')})`,
        ]
  })

/** What is wrong with a rule whose fields are each right: how they go together. */
const combinationProblems = (rule: FaultRule, index: number): ReadonlyArray<string> => {
  const retryAfter = retryAfterProblem(rule)
  return [
    ...(rule.fault === undefined && rule.answer === undefined && rule.delay === undefined
      ? [`[${index}]: a rule needs a fault, an answer or a delay (a delay goes with either)`]
      : []),
    ...(rule.fault !== undefined && rule.answer !== undefined ? [`[${index}].answer: a rule has a fault or an answer, not both`] : []),
    ...(rule.answer === undefined ? [] : answerProblems(rule.answer, `[${index}].answer`)),
    ...(rule.afterOperation !== undefined && rule.answer === undefined ? [`[${index}].afterOperation: is only for an answer`] : []),
    ...(retryAfter === undefined ? [] : [`[${index}].retryAfter: ${retryAfter}`]),
    ...parameterProblems(rule, `[${index}]`),
    ...(rule.chance !== undefined && rule.seed === undefined ? [`[${index}].seed: is required with chance`] : []),
    ...(rule.seed !== undefined && rule.chance === undefined ? [`[${index}].seed: is only for chance`] : []),
    ...(rule.when?.body !== undefined && rule.operation !== 'createPet'
      ? [`[${index}].when.body: only createPet has a body (${rule.operation} has none)`]
      : []),
    ...(rule.when !== undefined && JSON.stringify(rule.when).length > MAX_WHEN_CHARS
      ? [`[${index}].when: must be at most ${MAX_WHEN_CHARS} characters of JSON`]
      : []),
  ]
}

/** A rule with only its known fields, in one order, header names in lower case: what GET answers. */
const normalized = (rule: FaultRule): FaultRule => {
  const { operation, when, fault, answer, afterOperation, times, retryAfter, delay, after, chance, seed } = rule
  return {
    operation,
    ...(when === undefined
      ? {}
      : {
          when: {
            ...given('headers', lowerCased(when.headers)),
            ...given('body', when.body),
            ...given('params', when.params),
            ...given('query', when.query),
          },
        }),
    ...given('fault', fault),
    ...given('answer', answer === undefined ? undefined : normalizedAnswer(answer)),
    ...(afterOperation === true ? { afterOperation } : {}),
    ...given('times', times),
    ...given('retryAfter', retryAfter),
    ...given('delay', delay),
    ...given('after', after),
    ...given('chance', chance),
    ...given('seed', seed),
  }
}

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
