import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as t from 'io-ts'
import { describeErrors, ruleCodec } from '../../src/domain/codec.js'
import { echoed } from './error-response.js'
import { SANDBOX_FORCED_STATUSES } from './http-failures.js'

/** The longest delay a client may ask for, with `Prefer: delay=<milliseconds>` or a rule's `delay`. */
export const MAX_DELAY_MS = 10_000
/** The largest `Retry-After` a forced 429 or 503 may be given. */
export const MAX_RETRY_AFTER_SECONDS = 3600
/** How many requests one rule may apply to. */
export const MAX_RULE_TIMES = 1000
/** How many rules one script may hold. */
export const MAX_SCRIPT_RULES = 100

/** Faults that act on the connection instead of answering an Error. */
export const NETWORK_FAULTS = ['reset', 'reset-after', 'truncated'] as const
/** Every fault a sandbox may ask for, in `Prefer: fault=NAME` and in a script rule. */
export const FAULT_NAMES = [...SANDBOX_FORCED_STATUSES.map(String), ...NETWORK_FAULTS] as ReadonlyArray<string>
export type FaultName = `${(typeof SANDBOX_FORCED_STATUSES)[number]}` | (typeof NETWORK_FAULTS)[number]

export const OPERATIONS = ['listPets', 'createPet', 'getPet'] as const
export type Operation = (typeof OPERATIONS)[number]

const oneOf = <A extends string>(name: string, values: ReadonlyArray<A>) =>
  ruleCodec<A>(name, (input) =>
    typeof input === 'string' && values.includes(input as A) ? undefined : `must be one of ${values.join(', ')}`,
  )

const integerIn = (name: string, min: number, max: number) =>
  ruleCodec<number>(name, (input) =>
    Number.isSafeInteger(input) && (input as number) >= min && (input as number) <= max
      ? undefined
      : `must be an integer from ${min} to ${max}`,
  )

/** One rule: the next `times` requests of `operation` in the sandbox get `fault`, `delay` or both. */
export const FaultRule = t.intersection([
  t.type({
    operation: oneOf<Operation>('Operation', OPERATIONS),
    times: integerIn('Times', 1, MAX_RULE_TIMES),
  }),
  t.partial({
    fault: oneOf<FaultName>('FaultName', FAULT_NAMES as ReadonlyArray<FaultName>),
    retryAfter: integerIn('RetryAfter', 0, MAX_RETRY_AFTER_SECONDS),
    delay: integerIn('Delay', 0, MAX_DELAY_MS),
  }),
])
export type FaultRule = t.TypeOf<typeof FaultRule>

const RULE_FIELDS: ReadonlyArray<string> = ['operation', 'fault', 'times', 'retryAfter', 'delay']
const NOT_A_FIELD = `is not a field of a rule (${RULE_FIELDS.join(', ')})`

/** Each field a rule does not know, named by its position: an unknown field is a mistake, never ignored. */
const unknownFields = (rules: ReadonlyArray<unknown>): ReadonlyArray<string> =>
  rules.flatMap((rule, index) =>
    typeof rule === 'object' && rule !== null && !Array.isArray(rule)
      ? Object.keys(rule)
          .filter((field) => !RULE_FIELDS.includes(field))
          .map((field) => `[${index}].${echoed(field)}: ${NOT_A_FIELD}`)
      : [`[${index}]: must be an object`],
  )

/** What is wrong with a rule whose fields are each right: how they go together. */
const combinationProblems = (rule: FaultRule, index: number): ReadonlyArray<string> => [
  ...(rule.fault === undefined && rule.delay === undefined ? [`[${index}]: a rule needs a fault, a delay, or both`] : []),
]

/** A rule with only its known fields, in one order: what GET answers. */
const normalized = ({ operation, fault, times, retryAfter, delay }: FaultRule): FaultRule => ({
  operation,
  ...(fault === undefined ? {} : { fault }),
  times,
  ...(retryAfter === undefined ? {} : { retryAfter }),
  ...(delay === undefined ? {} : { delay }),
})

/** A script as PUT /v1/sandbox/faults takes it: a JSON array of rules, every problem named at once. */
export const decodeScript = (body: unknown): E.Either<ReadonlyArray<string>, ReadonlyArray<FaultRule>> => {
  if (!Array.isArray(body)) return E.left(['the body must be a JSON array of rules'])
  if (body.length > MAX_SCRIPT_RULES) return E.left([`a script holds at most ${MAX_SCRIPT_RULES} rules`])
  const unknown = unknownFields(body)
  if (unknown.length > 0) return E.left(unknown)
  return pipe(
    t.array(FaultRule).decode(body),
    E.mapLeft((errors) => describeErrors(errors)),
    E.flatMap((rules) => {
      const problems = rules.flatMap(combinationProblems)
      return problems.length > 0 ? E.left(problems) : E.right(rules.map(normalized))
    }),
  )
}

/**
 * The fault scripts of every sandbox, by the sandbox's name (the key's scope). Each request of a
 * sandbox takes the first rule for its operation and counts it down; a rule at 0 is gone.
 */
export interface FaultScripts {
  readonly replace: (sandbox: string, rules: ReadonlyArray<FaultRule>) => void
  readonly get: (sandbox: string) => ReadonlyArray<FaultRule>
  readonly clear: (sandbox: string) => void
  /** The rule this request of `operation` takes, if any, counted down. */
  readonly take: (sandbox: string, operation: Operation) => FaultRule | undefined
}

export const faultScripts = (): FaultScripts => {
  const scripts = new Map<string, FaultRule[]>()
  return {
    replace: (sandbox, rules) => {
      if (rules.length === 0) scripts.delete(sandbox)
      else
        scripts.set(
          sandbox,
          rules.map((rule) => ({ ...rule })),
        )
    },
    get: (sandbox) => (scripts.get(sandbox) ?? []).map((rule) => ({ ...rule })),
    clear: (sandbox) => void scripts.delete(sandbox),
    take: (sandbox, operation) => {
      const rules = scripts.get(sandbox)
      const index = rules?.findIndex((rule) => rule.operation === operation) ?? -1
      const rule = rules?.[index]
      if (rules === undefined || rule === undefined) return undefined
      if (rule.times <= 1) rules.splice(index, 1)
      else rules[index] = { ...rule, times: rule.times - 1 }
      if (rules.length === 0) scripts.delete(sandbox)
      return rule
    },
  }
}
