import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import ConnectionString from 'mongodb-connection-string-url'
import { SafeIntegerText, safeIntegerText } from '../domain/integer-text.js'
import { codecOf, type Env, readAll, type Read, readSetting, type SettingCodec, withDefault } from './setting-read.js'

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

/** The bound on each round trip to MongoDB, in milliseconds, unless PETSTORE_MONGODB_TIMEOUT_MS says otherwise. */
const DEFAULT_MONGODB_TIMEOUT_MS = 2000

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

/** MONGODB_URI: required, with a database MongoDB accepts in its path. */
const MongoUri = codecOf(
  'MongoUri',
  (uri: string | undefined = ''): E.Either<string, { readonly uri: string; readonly dbName: string }> => {
    if (uri === '') return E.left('is required when PETSTORE_STORE=mongodb')
    let database: string
    try {
      database = decodeURIComponent(new ConnectionString(uri).pathname.replace(/^\//, ''))
    } catch {
      return E.left('is not a valid MongoDB connection string (mongodb:// or mongodb+srv://)')
    }
    if (database === '') return E.left('names no database: add one to its path (mongodb+srv://host/petstore)')
    const problem = databaseNameProblem(database)
    return problem === undefined
      ? E.right({ uri, dbName: database })
      : E.left(
          `must name in its path a database MongoDB accepts, 1 to ${MAX_DB_NAME_BYTES} bytes without / \\ . space " $ or NUL: ` +
            `${JSON.stringify(database)} ${problem}`,
        )
  },
)

const TimeoutMs = withDefault(DEFAULT_MONGODB_TIMEOUT_MS, SafeIntegerText(100, 60_000))

const WriteConcern = withDefault<'majority' | number>(
  'majority',
  codecOf('WriteConcern', (text: string) => {
    if (text === 'majority') return E.right('majority')
    // 0 (unacknowledged) is refused: a 201 must mean the server has the pet.
    const nodes = safeIntegerText(text, 1, 9)
    return nodes !== undefined ? E.right(nodes) : E.left('must be majority or a number of nodes (1-9)')
  }),
)

/** PETSTORE_STORE; unset, the in-memory store, unless in `production`, where it must be chosen. */
const storeKind = (production: boolean): SettingCodec<StoreConfig['kind']> =>
  codecOf('StoreKind', (kind: string | undefined = '') => {
    if (kind === '')
      return production
        ? E.left(
            'must be set when NODE_ENV=production: the default in-memory store loses every pet on restart (set mongodb, or memory on purpose)',
          )
        : E.right('memory')
    return kind === 'memory' || kind === 'mongodb' ? E.right(kind) : E.left('must be memory or mongodb')
  })

/** The store and its settings, the MongoDB ones read only for MongoDB. */
export const storeSetting = (env: Env): Read<StoreConfig> =>
  pipe(
    readSetting(env, 'PETSTORE_STORE', storeKind(env.NODE_ENV === 'production')),
    E.flatMap((kind): Read<StoreConfig> =>
      kind === 'memory'
        ? E.right({ kind })
        : pipe(
            readAll({
              connection: readSetting(env, 'MONGODB_URI', MongoUri),
              timeoutMs: readSetting(env, 'PETSTORE_MONGODB_TIMEOUT_MS', TimeoutMs),
              writeConcern: readSetting(env, 'PETSTORE_MONGODB_WRITE_CONCERN', WriteConcern),
            }),
            E.map(({ connection, ...bounds }) => ({ kind, ...connection, ...bounds })),
          ),
    ),
  )
