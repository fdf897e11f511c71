import { OPERATIONS, type Operation, SCRIPTED_ANSWER } from './fault-rule.js'
import { answeredCode } from './answered-code.js'
import type { KeptRequest } from './journal-entry.js'
import { shownBody } from './held-body.js'
import type { RequestJournal } from './request-journal.js'
import { type Meter, meter, textBytes } from '../../src/store/meter.js'

/** A response the served contract declares for a pet operation, and the error codes it may carry. */
interface DeclaredResponse {
  readonly operation: Operation
  readonly status: number
  readonly codes: ReadonlyArray<string>
}

type Json = Readonly<Record<string, unknown>>

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `value`, or what its local `$ref` (`#/components/...`) names in `document`. */
const resolved = (document: Json, value: unknown): Json | undefined => {
  if (!isJson(value) || typeof value.$ref !== 'string') return isJson(value) ? value : undefined
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((at, name) => (isJson(at) ? at[name] : undefined), document)
  return isJson(target) ? target : undefined
}

/**
 * The values a schema allows an Error's `code`: a `const` or an `enum`, here and in each `allOf`
 * member, which all hold at once; undefined when nothing restricts it (no Error, or any code).
 */
const codesOf = (document: Json, schema: unknown): ReadonlyArray<string> | undefined => {
  const at = resolved(document, schema)
  if (at === undefined) return undefined
  const code = resolved(document, resolved(document, at.properties)?.code)
  const own: unknown[] | undefined = code?.const !== undefined ? [code.const] : Array.isArray(code?.enum) ? code.enum : undefined
  const members = Array.isArray(at.allOf) ? at.allOf.map((member) => codesOf(document, member)) : []
  return [own?.filter((each): each is string => typeof each === 'string'), ...members].reduce<ReadonlyArray<string> | undefined>(
    (allowed, more) => (more === undefined ? allowed : allowed === undefined ? more : more.filter((each) => allowed.includes(each))),
    undefined,
  )
}

/** Each pet operation the contract declares, with its Operation Object. */
function* petOperations(document: Json): Generator<readonly [Operation, Json]> {
  for (const item of Object.values(resolved(document, document.paths) ?? {})) {
    for (const operation of Object.values(resolved(document, item) ?? {})) {
      const described = resolved(document, operation)
      const id = OPERATIONS.find((each) => each === described?.operationId)
      if (id !== undefined && described !== undefined) yield [id, described]
    }
  }
}

/** Every response the contract declares for the pet operations, in operation then status order. */
export const declaredResponses = (document: Json): ReadonlyArray<DeclaredResponse> => {
  const declared: DeclaredResponse[] = []
  for (const [id, described] of petOperations(document)) {
    for (const [status, response] of Object.entries(resolved(document, described.responses) ?? {})) {
      const content = resolved(document, resolved(document, response)?.content)
      const schema = resolved(document, content?.['application/json'])?.schema
      if (/^\d{3}$/.test(status)) declared.push({ operation: id, status: Number(status), codes: codesOf(document, schema) ?? [] })
    }
  }
  return declared.sort((one, other) => OPERATIONS.indexOf(one.operation) - OPERATIONS.indexOf(other.operation) || one.status - other.status)
}

/** The pet operations the contract marks `deprecated`, in the order of OPERATIONS. */
export const deprecatedOperations = (document: Json): ReadonlyArray<Operation> => {
  const deprecated = new Set([...petOperations(document)].filter(([, described]) => described.deprecated === true).map(([id]) => id))
  return OPERATIONS.filter((operation) => deprecated.has(operation))
}

interface Total {
  readonly declared: number
  readonly reached: number
}

/** Which of the contract's responses, error codes and faults a sandbox's requests reached. */
export interface Coverage {
  readonly responses: ReadonlyArray<{
    readonly operation: Operation
    readonly status: number
    readonly reached: boolean
    readonly codes: ReadonlyArray<{ readonly code: string; readonly reached: boolean }>
  }>
  readonly faults: ReadonlyArray<{ readonly fault: string; readonly reached: boolean }>
  readonly totals: { readonly responses: Total; readonly codes: Total; readonly faults: Total }
}

/** What a sandbox's requests reached since it was last reset: kept apart from its journal, which holds only the newest. */
export interface ContractCoverage {
  /** Notes what every request that arrives from now on reaches, until the sandbox is reset. */
  readonly noting: (journal: RequestJournal) => RequestJournal
  readonly of: (sandbox: string, declared: ReadonlyArray<DeclaredResponse>, faults: ReadonlyArray<string>) => Coverage
  readonly clear: (sandbox: string) => void
}

const responseKey = (operation: string, status: number, code?: string): string =>
  `${operation} ${status}${code === undefined ? '' : ` ${code}`}`
const faultKey = (fault: string): string => `fault ${fault}`

/** What a sandbox's requests reached: a mark for each, and what they take of its budget. */
interface Reached {
  readonly marks: Set<string>
  readonly budget: Meter
}

/** The estimate of a mark kept, beside its characters: its entry in the set. */
const MARK_BYTES = 64

/** Keeps `mark` in `reached`, when its budget has room: the contract declares far fewer than it holds. */
const note = ({ marks, budget }: Reached, mark: string): void => {
  if (!marks.has(mark) && budget.charge(MARK_BYTES + textBytes(mark))) marks.add(mark)
}

/**
 * Notes the marks of what a request reached: its operation and status, its error code, its fault.
 * A scripted answer reaches nothing: it is what the script said, not what the service answers.
 */
const noteReached = (reached: Reached, { operation, status, fault, responseBody, reading }: KeptRequest): void => {
  if (fault === SCRIPTED_ANSWER) return
  if (operation !== null && status !== null) {
    note(reached, responseKey(operation, status))
    const code = answeredCode(status, () => shownBody(responseBody, reading.redact))
    if (code !== undefined) note(reached, responseKey(operation, status, code))
  }
  if (fault !== null) note(reached, faultKey(fault))
}

const total = (reached: ReadonlyArray<boolean>): Total => ({ declared: reached.length, reached: reached.filter(Boolean).length })

/**
 * Contract coverage per sandbox, in memory: a set of what was reached, whatever the number of
 * requests, within `budgetBytes` (coverage's part of the sandbox's budget). Its marks are made of
 * the service's own names (operations, statuses, error codes, faults), never of what a client
 * sends, so the set stays far below its budget. A request that arrived before a reset and ends
 * after it adds to the set the reset discarded, as its journal entry goes with the journal it arrived in.
 */
export const contractCoverage = (budgetBytes: number): ContractCoverage => {
  const reached = new Map<string, Reached>()
  const reachedBy = (sandbox: string): Reached => {
    const set = reached.get(sandbox) ?? { marks: new Set<string>(), budget: meter(budgetBytes) }
    reached.set(sandbox, set)
    return set
  }
  return {
    noting: (journal) => ({
      ...journal,
      arrive: (sandbox, request) => {
        const place = journal.arrive(sandbox, request)
        const set = reachedBy(sandbox)
        return {
          file: () => {
            noteReached(set, request)
            place.file()
          },
        }
      },
    }),
    of: (sandbox, declared, faults) => {
      const set = reached.get(sandbox)?.marks ?? new Set<string>()
      const responses = declared.map(({ operation, status, codes }) => ({
        operation,
        status,
        reached: set.has(responseKey(operation, status)),
        codes: codes.map((code) => ({ code, reached: set.has(responseKey(operation, status, code)) })),
      }))
      const faultsReached = faults.map((fault) => ({ fault, reached: set.has(faultKey(fault)) }))
      return {
        responses,
        faults: faultsReached,
        totals: {
          responses: total(responses.map((response) => response.reached)),
          codes: total(responses.flatMap((response) => response.codes.map((code) => code.reached))),
          faults: total(faultsReached.map((fault) => fault.reached)),
        },
      }
    },
    clear: (sandbox) => void reached.delete(sandbox),
  }
}
