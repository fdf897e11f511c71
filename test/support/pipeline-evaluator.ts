/**
 * A reading of the few aggregation expressions the MongoDB adapters' pipeline updates use, so that
 * their logic (who claims a record, when a window starts again) is tested on machines without a
 * mongod. It follows the server's semantics for these operators only, and throws on anything else;
 * the mongod-gated suites check the real server. A missing field is missing, not null: it sorts
 * before null and equals only another missing value (the server's canonicalizeBSONType in
 * src/mongo/bson/bsontypes.h ranks EOO 0 and null 5), though `$ifNull` and arithmetic treat both
 * alike. A number is typed as the driver encodes a JavaScript number (bson's serializeNumber: an
 * int32 when it is a safe integer in int32 range and not -0, otherwise a double); numbers the
 * pipeline computes are typed the same way, though the server may type them otherwise (a
 * `$toLong` is a long there), so no query here reads the `$type` of a computed number.
 */

type Doc = Record<string, unknown>

const MISSING = Symbol('missing')
const REMOVE = Symbol('$$REMOVE')

/** The server's order of the types used here (canonicalizeBSONType): missing, null, numbers, strings, objects, booleans, dates. */
const rankOf = (value: unknown): number => {
  if (value === MISSING) return 0
  if (value === null) return 5
  if (typeof value === 'number') return 10
  if (typeof value === 'string') return 15
  if (typeof value === 'boolean') return 40
  if (value instanceof Date) return 45
  return 20
}

/** `$ifNull` and arithmetic treat a missing value and null alike. */
const isNullish = (value: unknown): boolean => value === MISSING || value === null

/** How `$cond`, `$and` and `$or` read a value as a condition: missing, null, false and 0 are false. */
const isTrue = (value: unknown): boolean => !(isNullish(value) || value === false || value === 0)

const compare = (a: unknown, b: unknown): number => {
  const byRank = rankOf(a) - rankOf(b)
  if (byRank !== 0) return byRank
  if (isNullish(a)) return 0
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime()
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  return JSON.stringify(a) === JSON.stringify(b) ? 0 : 1
}

const typeName = (value: unknown): string => {
  if (value === MISSING) return 'missing'
  if (value === null) return 'null'
  if (value instanceof Date) return 'date'
  if (typeof value === 'number') return Number.isSafeInteger(value) && !Object.is(value, -0) && (value | 0) === value ? 'int' : 'double'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'bool'
  return 'object'
}

const numberOf = (value: unknown): number => {
  if (typeof value !== 'number') throw new Error(`not a number: ${String(value)}`)
  return value
}

const evaluate = (expression: unknown, doc: Doc, now: Date): unknown => {
  if (typeof expression === 'string' && expression.startsWith('$$')) {
    if (expression === '$$NOW') return now
    if (expression === '$$REMOVE') return REMOVE
    throw new Error(`unknown variable ${expression}`)
  }
  if (typeof expression === 'string' && expression.startsWith('$')) {
    const value = expression
      .slice(1)
      .split('.')
      .reduce<unknown>(
        (current, key) => (typeof current === 'object' && current !== null && key in current ? (current as Doc)[key] : MISSING),
        doc,
      )
    return value
  }
  if (Array.isArray(expression)) return expression.map((item) => evaluate(item, doc, now))
  if (typeof expression !== 'object' || expression === null || expression instanceof Date) return expression
  const entries: ReadonlyArray<[string, unknown]> = Object.entries(expression)
  const [operator, argument]: [string, unknown] = entries[0] ?? ['', undefined]
  if (entries.length !== 1 || !operator.startsWith('$')) {
    return Object.fromEntries(entries.map(([key, value]) => [key, evaluate(value, doc, now)]))
  }
  if (operator === '$literal') return argument
  const raw: ReadonlyArray<unknown> = Array.isArray(argument) ? argument : [argument]
  // Only the branch taken is evaluated.
  if (operator === '$cond') return evaluate(isTrue(evaluate(raw[0], doc, now)) ? raw[1] : raw[2], doc, now)
  const args = raw.map((item) => evaluate(item, doc, now))
  // Arithmetic on a missing or null value is null, as on the server.
  if (['$add', '$toLong', '$toDate', '$divide', '$multiply', '$floor'].includes(operator) && args.some(isNullish)) {
    return null
  }
  switch (operator) {
    case '$or':
      return args.some(isTrue)
    case '$and':
      return args.every(isTrue)
    case '$ifNull':
      return isNullish(args[0]) ? args[1] : args[0]
    case '$eq':
      return compare(args[0], args[1]) === 0
    case '$ne':
      return compare(args[0], args[1]) !== 0
    case '$lte':
      return compare(args[0], args[1]) <= 0
    case '$gt':
      return compare(args[0], args[1]) > 0
    case '$type':
      return typeName(args[0])
    case '$add': {
      const date = args.find((item): item is Date => item instanceof Date)
      const sum = args.filter((item) => !(item instanceof Date)).reduce<number>((total, item) => total + numberOf(item), 0)
      return date === undefined ? sum : new Date(date.getTime() + sum)
    }
    case '$toLong':
      return args[0] instanceof Date ? args[0].getTime() : Math.trunc(numberOf(args[0]))
    case '$toDate':
      return new Date(numberOf(args[0]))
    case '$divide':
      return numberOf(args[0]) / numberOf(args[1])
    case '$multiply':
      return numberOf(args[0]) * numberOf(args[1])
    case '$floor':
      return Math.floor(numberOf(args[0]))
    default:
      throw new Error(`operator ${operator} is not read by this evaluator`)
  }
}

/**
 * The document an update pipeline of `$set` stages leaves, as an upserting update would: applied to
 * `doc`, or to `{ _id }` when there is none, with `$$NOW` = `now`. Each stage reads the document as
 * the previous stage left it.
 */
export const applyPipeline = (doc: Doc | undefined, id: unknown, pipeline: ReadonlyArray<Record<string, unknown>>, now: Date): Doc =>
  pipeline.reduce<Doc>(
    (current, stage) => {
      const [name, fields] = Object.entries(stage)[0] ?? []
      if (name !== '$set' || typeof fields !== 'object' || fields === null) throw new Error(`stage ${String(name)} is not read`)
      const next: Doc = { ...current }
      for (const [field, expression] of Object.entries(fields)) {
        const value = evaluate(expression, current, now)
        if (value === REMOVE || value === MISSING) delete next[field]
        else next[field] = value
      }
      return next
    },
    doc ?? { _id: id },
  )
