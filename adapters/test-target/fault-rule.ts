import * as t from 'io-ts'
import { ruleCodec } from '../../src/domain/codec.js'
import { echoed } from '../http/error-response.js'
import { FORCED_STATUSES } from './failures.js'
import { PET_OPERATIONS, type PetOperation } from '../http/routes.js'
import { HEADER_NAME, integerIn, isJsonObject, type JsonObject } from './rule-values.js'
import { ScriptedAnswer } from './scripted-answer.js'
import { MAX_SEED } from './seeded-random.js'

/** The longest delay a client may ask for, with `Prefer: delay=<milliseconds>` or a rule's `delay`. */
export const MAX_DELAY_MS = 10_000
/** The largest `Retry-After` a forced 429 or 503 may be given. */
export const MAX_RETRY_AFTER_SECONDS = 3600
/** How many requests one rule may apply to. */
const MAX_RULE_TIMES = 1000

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
