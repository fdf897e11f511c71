import { METHODS } from 'node:http'
import * as E from 'fp-ts/Either'
import { safeIntegerText } from '../../src/domain/integer-text.js'
import { echoed } from '../http/error-response.js'
import { withoutOptionalWhitespace } from '../http/optional-whitespace.js'
import { APPLIED_FAULTS, type AppliedFault, OPERATIONS, type Operation } from './fault-rule.js'
import { JOURNAL_STATES, type JournalEntry, type JournalState } from './journal-entry.js'

/** A request header an entry must have been sent with: by name (in lower case), with exactly `value` when given. */
interface HeaderFilter {
  readonly name: string
  readonly value?: string
}

/** The entries a read or a count of a journal is about: those that match every filter given. */
export interface JournalFilter {
  readonly method?: string
  readonly path?: string
  readonly operation?: Operation
  readonly state?: JournalState
  readonly status?: number
  readonly fault?: AppliedFault
  readonly headers: ReadonlyArray<HeaderFilter>
  /** Entries whose sequence number is greater. */
  readonly since?: number
}

/** The filters of GET /v1/sandbox/requests and of its count; `fault` only where faults are on. */
const FILTERS = ['method', 'path', 'operation', 'state', 'status', 'fault', 'header', 'since'] as const
type FilterName = (typeof FILTERS)[number]

type Query = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** RFC 9110 §5.1: a field name is a token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** `name` or `name:value`; the value's surrounding spaces and tabs are no part of it, as in a header line. */
const headerFilterOf = (text: string): HeaderFilter | undefined => {
  const colon = text.indexOf(':')
  const name = colon === -1 ? text : text.slice(0, colon)
  if (!FIELD_NAME.test(name)) return undefined
  const lower = name.toLowerCase()
  return colon === -1 ? { name: lower } : { name: lower, value: withoutOptionalWhitespace(text.slice(colon + 1)) }
}

const isOperation = (value: string): value is Operation => (OPERATIONS as ReadonlyArray<string>).includes(value)
const isState = (value: string): value is JournalState => (JOURNAL_STATES as ReadonlyArray<string>).includes(value)

/** Each filter given once: its value read, or why it is refused. */
const READERS: Readonly<Record<Exclude<FilterName, 'header'>, (value: string) => Partial<JournalFilter> | string>> = {
  method: (value) => (METHODS.includes(value) ? { method: value } : 'must be an HTTP method, in capitals, such as GET or POST'),
  path: (value) => (value.startsWith('/') && !value.includes('?') ? { path: value } : 'must be a path starting with /, without a query'),
  operation: (value) => (isOperation(value) ? { operation: value } : `must be one of ${OPERATIONS.join(', ')}`),
  state: (value) => (isState(value) ? { state: value } : `must be one of ${JOURNAL_STATES.join(', ')}`),
  status: (value) => {
    const status = safeIntegerText(value, 100, 599)
    return status === undefined ? 'must be an integer from 100 to 599' : { status }
  },
  fault: (value) => (APPLIED_FAULTS.includes(value) ? { fault: value as AppliedFault } : `must be one of ${APPLIED_FAULTS.join(', ')}`),
  since: (value) => {
    const since = safeIntegerText(value, 0, Number.MAX_SAFE_INTEGER)
    return since === undefined ? `must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}` : { since }
  },
}

interface FilterOptions {
  /** The other parameters of the operation, which its route reads itself (`limit`). */
  readonly others: ReadonlyArray<string>
  /** Whether faults are on: entries can have one, and `fault` is a filter. */
  readonly faults: boolean
}

/**
 * Reads the filters of a journal read or count from the query, as Koa parsed it. Every problem is
 * named at once: an unknown parameter, one given twice (`header` aside: each one given must match), a
 * value outside its rules.
 */
export const readJournalFilter = (query: Query, { others, faults }: FilterOptions): E.Either<ReadonlyArray<string>, JournalFilter> => {
  const filters: ReadonlyArray<string> = faults ? FILTERS : FILTERS.filter((name) => name !== 'fault')
  const accepted = [...others, ...filters].join(', ')
  const problems: string[] = []
  const headers: HeaderFilter[] = []
  let filter: Partial<JournalFilter> = {}
  for (const [name, given] of Object.entries(query)) {
    const values = typeof given === 'string' ? [given] : (given ?? [])
    if (others.includes(name)) continue
    if (!filters.includes(name)) {
      problems.push(`${echoed(name)}: is not a parameter of this operation (accepted: ${accepted})`)
    } else if (name === 'header') {
      for (const value of values) {
        const header = headerFilterOf(value)
        if (header === undefined) problems.push('header: must be a header name, or name:value')
        else headers.push(header)
      }
    } else if (values.length !== 1) {
      problems.push(`${name}: must be given at most once`)
    } else {
      const read = READERS[name as Exclude<FilterName, 'header'>](values[0] ?? '')
      if (typeof read === 'string') problems.push(`${name}: ${read}`)
      else filter = { ...filter, ...read }
    }
  }
  return problems.length > 0 ? E.left(problems) : E.right({ ...filter, headers })
}

/** The path of an entry, without its query. */
const pathOf = (pathAndQuery: string): string => {
  const query = pathAndQuery.indexOf('?')
  return query === -1 ? pathAndQuery : pathAndQuery.slice(0, query)
}

/** Whether an entry matches every filter. A header's value is compared as the entry shows it: keys `[redacted]`. */
export const matchesFilter = (entry: JournalEntry, filter: JournalFilter): boolean =>
  (filter.since === undefined || entry.sequence > filter.since) &&
  (filter.method === undefined || entry.method === filter.method) &&
  (filter.path === undefined || pathOf(entry.path) === filter.path) &&
  (filter.operation === undefined || entry.operation === filter.operation) &&
  (filter.state === undefined || entry.state === filter.state) &&
  (filter.status === undefined || entry.status === filter.status) &&
  (filter.fault === undefined || entry.fault === filter.fault) &&
  filter.headers.every(
    ({ name, value }) => Object.hasOwn(entry.request.headers, name) && (value === undefined || entry.request.headers[name] === value),
  )
