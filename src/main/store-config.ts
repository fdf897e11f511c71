import * as E from 'fp-ts/Either'
import { safeIntegerText } from '../domain/integer-text.js'
import ConnectionString from 'mongodb-connection-string-url'
import { DEFAULT_TIMEOUT_MS } from '../../adapters/mongodb/mongo-options.js'
import { type Env, integerSetting, type Read } from './setting-read.js'

/** Which PetRepository adapter the service runs on. */
export type StoreConfig =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'mongodb'
      readonly uri: string
      readonly dbName: string
      readonly timeoutMs: number
      readonly writeConcern: 'majority' | number
    }

/** MongoDB's limit on a database name, in UTF-8 bytes. */
const MAX_DB_NAME_BYTES = 63
/** Characters MongoDB refuses in a database name on every platform. */
const DB_NAME_FORBIDDEN = /[/\\. "$\0]/

/**
 * What MongoDB would refuse about a database name, or undefined. Refused here, at start-up: a name
 * the server refuses would otherwise only show as a 503 on every request and on /readyz, forever.
 */
const databaseNameProblem = (name: string): string | undefined => {
  const bytes = Buffer.byteLength(name, 'utf8')
  if (bytes > MAX_DB_NAME_BYTES) return `is ${bytes} bytes long`
  const forbidden = DB_NAME_FORBIDDEN.exec(name)?.[0]
  return forbidden === undefined ? undefined : `contains ${JSON.stringify(forbidden)}`
}

const dbNameOf = (uri: string): Read<string> => {
  try {
    const database = decodeURIComponent(new ConnectionString(uri).pathname.replace(/^\//, ''))
    if (database === '') return E.left('MONGODB_URI names no database: add one to its path (mongodb+srv://host/petstore)')
    const problem = databaseNameProblem(database)
    return problem === undefined
      ? E.right(database)
      : E.left(
          `MONGODB_URI must name in its path a database MongoDB accepts, 1 to ${MAX_DB_NAME_BYTES} bytes without / \\ . space " $ or NUL: ` +
            `${JSON.stringify(database)} ${problem}`,
        )
  } catch {
    return E.left('MONGODB_URI is not a valid MongoDB connection string (mongodb:// or mongodb+srv://)')
  }
}

const writeConcernSetting = (env: Env): Read<'majority' | number> => {
  const text = env.PETSTORE_MONGODB_WRITE_CONCERN ?? ''
  if (text === '' || text === 'majority') return E.right('majority')
  // 0 (unacknowledged) is refused: a 201 must mean the server has the pet.
  const nodes = safeIntegerText(text, 1, 9)
  return nodes !== undefined ? E.right(nodes) : E.left('PETSTORE_MONGODB_WRITE_CONCERN must be majority or a number of nodes (1-9)')
}

/** The store and its settings; every problem of the MongoDB settings at once, each naming its variable. */
export const storeSetting = (env: Env): E.Either<ReadonlyArray<string>, StoreConfig> => {
  const kind = env.PETSTORE_STORE ?? ''
  if (kind === '') {
    return env.NODE_ENV === 'production'
      ? E.left([
          'PETSTORE_STORE must be set when NODE_ENV=production: the default in-memory store loses every pet on restart (set mongodb, or memory on purpose)',
        ])
      : E.right({ kind: 'memory' })
  }
  if (kind === 'memory') return E.right({ kind: 'memory' })
  if (kind !== 'mongodb') return E.left(['PETSTORE_STORE must be memory or mongodb'])
  const uri = env.MONGODB_URI ?? ''
  const uriSet: Read<string> = uri === '' ? E.left('MONGODB_URI is required when PETSTORE_STORE=mongodb') : E.right(uri)
  // Without a URI, its path cannot be read: that problem is the missing URI's alone.
  const dbName: Read<string> = uri === '' ? E.right('') : dbNameOf(uri)
  const timeoutMs = integerSetting(env, 'PETSTORE_MONGODB_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, 100, 60_000)
  const writeConcern = writeConcernSetting(env)
  if (E.isLeft(uriSet) || E.isLeft(dbName) || E.isLeft(timeoutMs) || E.isLeft(writeConcern)) {
    return E.left([uriSet, dbName, timeoutMs, writeConcern].flatMap((read) => (E.isLeft(read) ? [read.left] : [])))
  }
  return E.right({ kind: 'mongodb', uri, dbName: dbName.right, timeoutMs: timeoutMs.right, writeConcern: writeConcern.right })
}
