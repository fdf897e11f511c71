import { type CollectionOptions, type Db, type Document, MongoServerError } from 'mongodb'
import { applyPipeline } from './pipeline-evaluator.js'

type Doc = Record<string, unknown>

/** What the next call of an operation does: wait for the test before it runs, fail before it is applied, or be applied and lose its answer. */
type Behaviour = { readonly hold: Promise<void> } | { readonly fail: Error } | { readonly lose: Error }

/** A call the adapter made: its operation, collection, first argument, and the collection's settings (its write concern). */
export interface StandInCall {
  readonly operation: string
  readonly collection: string
  readonly argument: unknown
  readonly settings: CollectionOptions | undefined
}

const matches = (doc: Doc, filter: Doc): boolean =>
  Object.entries(filter).every(([field, value]) =>
    typeof value === 'object' && value !== null && '$exists' in value ? field in doc === value.$exists : doc[field] === value,
  )

/** An update as the server applies it: a pipeline of `$set` stages (see pipeline-evaluator.ts), or `$set`, `$inc` and `$setOnInsert`. */
const updated = (doc: Doc | undefined, id: unknown, update: unknown): Doc => {
  if (Array.isArray(update)) return applyPipeline(doc, id, update as ReadonlyArray<Doc>, new Date())
  const { $set = {}, $inc = {}, $setOnInsert = {} } = update as Record<string, Record<string, number>>
  const next: Doc = { ...(doc ?? { _id: id, ...$setOnInsert }), ...$set }
  for (const [field, by] of Object.entries($inc)) next[field] = (typeof next[field] === 'number' ? next[field] : 0) + by
  return next
}

const duplicateKey = (): MongoServerError =>
  new MongoServerError({ ok: 0, code: 11000, codeName: 'DuplicateKey', errmsg: 'E11000 duplicate key' })

/**
 * A database without a mongod for the few calls the MongoDB adapter makes, over documents in memory
 * (unique `_id`, and `createId` once createId_1 exists), recording every call. `indexes` names the
 * indexes each collection starts with; a collection without documents or indexes does not exist.
 */
export const standInDb = (indexes: Readonly<Record<string, ReadonlyArray<string>>> = {}) => {
  const collections = new Map<string, Map<unknown, Doc>>()
  const indexNames = new Map(Object.entries(indexes).map(([name, names]) => [name, new Set(names)]))
  const behaviours = new Map<string, Behaviour[]>()
  const calls: StandInCall[] = []
  const docsOf = (name: string): Map<unknown, Doc> => {
    const docs = collections.get(name) ?? new Map<unknown, Doc>()
    collections.set(name, docs)
    return docs
  }
  /** Runs `apply` as the next behaviour queued for `operation` says. */
  const run = async <A>(operation: string, apply: () => A): Promise<A> => {
    const behaviour = behaviours.get(operation)?.shift()
    if (behaviour !== undefined && 'fail' in behaviour) throw behaviour.fail
    if (behaviour !== undefined && 'hold' in behaviour) await behaviour.hold
    const result = apply()
    if (behaviour !== undefined && 'lose' in behaviour) throw behaviour.lose
    return result
  }
  const write = (name: string, filter: Doc, update: unknown, upsert: boolean) => {
    const docs = docsOf(name)
    const found = [...docs.values()].find((doc) => matches(doc, filter))
    if (found === undefined && !upsert) return { doc: null, matchedCount: 0 }
    const doc = updated(found, found?._id ?? filter._id, update)
    docs.set(doc._id, doc)
    return { doc, matchedCount: found === undefined ? 0 : 1 }
  }
  const collection = (name: string, settings?: CollectionOptions) => {
    const call = (operation: string, argument: unknown) => calls.push({ operation, collection: name, argument, settings })
    return {
      findOneAndUpdate: (filter: Doc, update: unknown, options: { upsert?: boolean } = {}) => {
        call('findOneAndUpdate', filter)
        return run('findOneAndUpdate', () => write(name, filter, update, options.upsert === true).doc)
      },
      updateOne: (filter: Doc, update: unknown, options: { upsert?: boolean } = {}) => {
        call('updateOne', filter)
        return run('updateOne', () => ({ matchedCount: write(name, filter, update, options.upsert === true).matchedCount }))
      },
      insertOne: (doc: Doc) => {
        call('insertOne', doc)
        return run('insertOne', () => {
          const docs = docsOf(name)
          const unique = (indexNames.get(name)?.has('createId_1') ?? false) && doc.createId !== undefined
          if (docs.has(doc._id) || (unique && [...docs.values()].some((other) => other.createId === doc.createId))) throw duplicateKey()
          docs.set(doc._id, { ...doc })
        })
      },
      findOne: (filter: Doc) => {
        call('findOne', filter)
        return run('findOne', () => [...docsOf(name).values()].find((doc) => matches(doc, filter)) ?? null)
      },
      listIndexes: () => ({
        toArray: () => {
          call('listIndexes', undefined)
          return run('listIndexes', () => {
            const names = indexNames.get(name)
            if (names === undefined && docsOf(name).size === 0) throw new MongoServerError({ ok: 0, code: 26, errmsg: 'ns does not exist' })
            return ['_id_', ...(names ?? [])].map((index) => ({ name: index }))
          })
        },
      }),
      createIndexes: (specs: ReadonlyArray<{ readonly name: string }>) => {
        call('createIndexes', specs)
        return run('createIndexes', () => {
          const names = indexNames.get(name) ?? indexNames.set(name, new Set()).get(name)
          for (const spec of specs) names?.add(spec.name)
          return specs.map((spec) => spec.name)
        })
      },
    }
  }
  const command = (command: Document) => {
    calls.push({ operation: Object.keys(command)[0] ?? '', collection: '', argument: command, settings: undefined })
    return run('command', () => ({ ok: 1 }))
  }
  const db = { collection, command } as unknown as Db
  return {
    db,
    database: async () => db,
    calls,
    documents: (name: string): ReadonlyArray<Doc> => [...docsOf(name).values()],
    /** The next `operation` waits until `release` is called, then is applied. */
    hold: (operation: string): (() => void) => {
      let release = (): void => undefined
      const hold = new Promise<void>((resolve) => (release = resolve))
      behaviours.set(operation, [...(behaviours.get(operation) ?? []), { hold }])
      return release
    },
    /** The next `operation` fails with `error`: before it is applied, or (`lose`) after. */
    fail: (operation: string, error: Error, when: 'fail' | 'lose' = 'fail') =>
      behaviours.set(operation, [...(behaviours.get(operation) ?? []), when === 'fail' ? { fail: error } : { lose: error }]),
  }
}

export type StandInDb = ReturnType<typeof standInDb>
