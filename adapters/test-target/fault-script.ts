import { isDeepStrictEqual } from 'node:util'
import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as t from 'io-ts'
import { describeErrors, ruleCodec } from '../../src/domain/codec.js'
import { JsonInteger } from '../../src/domain/integer-text.js'
import { echoed } from '../http/error-response.js'
import { SANDBOX_FORCED_STATUSES } from '../http/http-failures.js'
import { PET_OPERATIONS, type PetOperation } from '../http/routes.js'
import { MAX_SEED, mulberry32 } from './seeded-random.js'

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
export const FAULT_NAMES = [...SANDBOX_FORCED_STATUSES.map(String), ...NETWORK_FAULTS] as ReadonlyArray<string>
export type FaultName = `${(typeof SANDBOX_FORCED_STATUSES)[number]}` | (typeof NETWORK_FAULTS)[number]

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

const isJsonObject = (input: unknown): input is JsonObject => typeof input === 'object' && input !== null && !Array.isArray(input)

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
  return pipe(
    t.array(FaultRule).decode(body),
    E.mapLeft((errors) => describeErrors(errors)),
    E.flatMap((rules) => {
      const problems = rules.flatMap(combinationProblems)
      return problems.length > 0 ? E.left(problems) : E.right(rules.map(normalized))
    }),
  )
}

/** What a rule is matched against: the request's operation, its headers, and its body once read. */
export interface ScriptedRequest {
  readonly operation: Operation
  /** A header's value by its lower-case name, as Node gives it (repeated lines joined with ", "). */
  readonly header: (name: string) => string | undefined
  /** The body, parsed and checked, once it is read; absent before. */
  readonly body?: { readonly value: unknown }
}

/** What `take` answers when the first rule that may match a request matches on its body, not yet read. */
export const NEEDS_BODY = 'needs-body'

/** Whether `rule` matches `request`: NEEDS_BODY when only its body, not yet read, can tell. */
const matches = (rule: FaultRule, request: ScriptedRequest): boolean | typeof NEEDS_BODY => {
  if (rule.operation !== request.operation) return false
  const headers = Object.entries(rule.when?.headers ?? {})
  if (!headers.every(([name, value]) => request.header(name) === value)) return false
  const wanted = rule.when?.body
  if (wanted === undefined) return true
  if (request.body === undefined) return NEEDS_BODY
  const body = request.body.value
  return (
    isJsonObject(body) && Object.entries(wanted).every(([name, value]) => Object.hasOwn(body, name) && isDeepStrictEqual(body[name], value))
  )
}

/**
 * The fault scripts of every sandbox, by the sandbox's name (the key's scope). Each request of a
 * sandbox takes the first rule it matches: while the rule's `after` is above 0, it counts that
 * down and the request passes untouched; then, with `chance`, a draw from the rule's generator (its
 * `seed` advances) decides whether the rule applies; a rule that applies counts `times` down, and
 * at 0 it is gone.
 */
export interface FaultScripts {
  readonly replace: (sandbox: string, rules: ReadonlyArray<FaultRule>) => void
  readonly get: (sandbox: string) => ReadonlyArray<FaultRule>
  readonly clear: (sandbox: string) => void
  /**
   * The rule that applies to this request, if any, counted; NEEDS_BODY, with nothing counted, when
   * the first rule it may match matches on a body not yet given.
   */
  readonly take: (sandbox: string, request: ScriptedRequest) => FaultRule | undefined | typeof NEEDS_BODY
}

export const faultScripts = (): FaultScripts => {
  const scripts = new Map<string, FaultRule[]>()
  /** Counts the request that matched `rules[index]`, and answers the rule when it applies. */
  const count = (sandbox: string, rules: FaultRule[], index: number, rule: FaultRule): FaultRule | undefined => {
    if (rule.after !== undefined && rule.after > 0) {
      rules[index] = { ...rule, after: rule.after - 1 }
      return undefined
    }
    let drawn = rule
    if (rule.chance !== undefined && rule.seed !== undefined) {
      const draw = mulberry32(rule.seed)
      drawn = { ...rule, seed: draw.next }
      rules[index] = drawn
      if (draw.value >= rule.chance) return undefined
    }
    if (drawn.times <= 1) rules.splice(index, 1)
    else rules[index] = { ...drawn, times: drawn.times - 1 }
    if (rules.length === 0) scripts.delete(sandbox)
    return rule
  }
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
    take: (sandbox, request) => {
      const rules = scripts.get(sandbox) ?? []
      for (const [index, rule] of rules.entries()) {
        const match = matches(rule, request)
        if (match === NEEDS_BODY) return NEEDS_BODY
        if (match) return count(sandbox, rules, index, rule)
      }
      return undefined
    },
  }
}
