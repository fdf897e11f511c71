import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import { describeErrors } from '../../src/domain/codec.js'
import { echoed } from '../http/error-response.js'
import { type FaultName, FaultRule, type Operation } from './fault-rule.js'
import { given, isJsonObject, lowerCased } from './rule-values.js'
import { ANSWER_FIELDS, answerProblems, normalizedAnswer } from './scripted-answer.js'

/** How many rules one script may hold. */
const MAX_SCRIPT_RULES = 100
/** How long a rule's `when` may be, written as JSON: a script stays small in memory whatever it matches. */
const MAX_WHEN_CHARS = 1024

/** The parameters of each operation's path and query, by the names the contract gives them: what `when` may match. */
const PATH_PARAMETERS: Readonly<Record<Operation, ReadonlyArray<string>>> = { listPets: [], createPet: [], getPet: ['petId'] }
const QUERY_PARAMETERS: Readonly<Record<Operation, ReadonlyArray<string>>> = {
  listPets: ['limit', 'status', 'after'],
  createPet: [],
  getPet: [],
}

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
