import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { type Db, MongoClient, MongoServerError } from 'mongodb'
import { suite } from 'uvu'
import type { MongoIdempotencyTimes } from '../../adapters/mongodb/mongo-idempotency-store.js'
import type { IdempotencyTimes } from '../../src/domain/idempotency-store.js'
import { skippedSuite } from './skipped-suite.js'

/** Where the tests get a mongod, decided before any suite is registered. */
export type MongodSource =
  | { readonly kind: 'uri'; readonly uri: string }
  | { readonly kind: 'binary'; readonly path: string }
  | { readonly kind: 'none'; readonly reason: string }

export interface RunningMongod {
  readonly uri: string
  readonly stop: () => Promise<void>
}

/** Bounds a first real download on a machine with internet; offline the attempt fails in under a second. */
const FIND_TIMEOUT_MS = 180_000

/**
 * The child that looks for a binary requires mongodb-memory-server by the path this module resolves
 * it to: `node -e` would resolve it from its working folder, which need not be this project.
 */
const FIND_BINARY = `require(${JSON.stringify(require.resolve('mongodb-memory-server'))}).MongoBinary.getPath().then(
  (path) => process.stdout.write(path),
  (error) => { process.stderr.write(String(error.message)); process.exit(1) })`

type FoundBinary = { readonly path: string } | { readonly why: string }

/** What findBinary found: asked once per process, however many MongoDB suites the process loads. */
let foundBinary: FoundBinary | undefined

/** A mongod binary from mongodb-memory-server (MONGOMS_SYSTEM_BINARY, its cache, or its download, without retries). */
const findBinary = (): FoundBinary => (foundBinary ??= lookForBinary())

const lookForBinary = (): FoundBinary => {
  const found = spawnSync(process.execPath, ['-e', FIND_BINARY], {
    env: { ...process.env, MONGOMS_MAX_RETRIES: process.env.MONGOMS_MAX_RETRIES ?? '0' },
    encoding: 'utf8',
    timeout: FIND_TIMEOUT_MS,
  })
  if (found.status === 0 && found.stdout !== '') return { path: found.stdout }
  return { why: `${found.stderr ?? ''}${found.error?.message ?? ''}`.replace(/\s+/g, ' ').trim().slice(0, 200) }
}

const fromEnv = (name: string): string | undefined => {
  const value = process.env[name]
  return value === undefined || value === '' ? undefined : value
}

/**
 * Decides synchronously, because uvu registers suites synchronously: PETSTORE_TEST_MONGODB_URI when
 * set (a server on which the suites create and drop throwaway databases), else a mongod binary.
 */
export const findMongod = (): MongodSource => {
  const uri = fromEnv('PETSTORE_TEST_MONGODB_URI')
  if (uri !== undefined) return { kind: 'uri', uri }
  const binary = findBinary()
  return 'path' in binary
    ? { kind: 'binary', path: binary.path }
    : { kind: 'none', reason: `no mongod binary could be had (set MONGOMS_SYSTEM_BINARY or PETSTORE_TEST_MONGODB_URI): ${binary.why}` }
}

/**
 * Where the replica-set suites get one: PETSTORE_TEST_MONGODB_REPLSET_URI when set, else a mongod
 * binary started as a replica set of three members (MongoMemoryReplSet).
 */
export const findReplicaSet = (): MongodSource => {
  const uri = fromEnv('PETSTORE_TEST_MONGODB_REPLSET_URI')
  if (uri !== undefined) return { kind: 'uri', uri }
  const binary = findBinary()
  return 'path' in binary
    ? { kind: 'binary', path: binary.path }
    : {
        kind: 'none',
        reason: `no mongod binary could be had (set MONGOMS_SYSTEM_BINARY or PETSTORE_TEST_MONGODB_REPLSET_URI): ${binary.why}`,
      }
}

/** Members of the replica set started from a binary: a majority write waits for a secondary. */
const REPLICA_SET_MEMBERS = 3

/**
 * The standalone's arguments: test commands on, for its tests hold an index build with a fail point
 * (configureFailPoint exists only where enableTestCommands is set; see failPoint).
 */
const STANDALONE_ARGS = ['--setParameter', 'enableTestCommands=1']

/** Starts (or, for a URI, just uses) the mongod the source names: a standalone, or a replica set. */
export const startMongod = async (
  source: Exclude<MongodSource, { kind: 'none' }>,
  topology: 'standalone' | 'replica set' = 'standalone',
): Promise<RunningMongod> => {
  if (source.kind === 'uri') return { uri: source.uri, stop: async () => undefined }
  const { MongoMemoryReplSet, MongoMemoryServer } = await import('mongodb-memory-server')
  if (topology === 'replica set') {
    const set = await MongoMemoryReplSet.create({ replSet: { count: REPLICA_SET_MEMBERS }, binary: { systemBinary: source.path } })
    return { uri: set.getUri(), stop: async () => void (await set.stop()) }
  }
  const server = await MongoMemoryServer.create({ binary: { systemBinary: source.path }, instance: { args: STANDALONE_ARGS } })
  return { uri: server.getUri(), stop: async () => void (await server.stop()) }
}

/**
 * What a MongoDB test file does when no mongod can be had: skip in one line, or, with
 * PETSTORE_REQUIRE_MONGODB=1 (a machine that has one and must prove the suites), fail.
 */
export const withoutMongod = (name: string, reason: string): void => {
  if (process.env.PETSTORE_REQUIRE_MONGODB !== '1') return skippedSuite(name, reason)
  const required = suite(name)
  required(`fails: PETSTORE_REQUIRE_MONGODB=1 and ${reason}`, () => {
    throw new Error(`${name} must run (PETSTORE_REQUIRE_MONGODB=1), but ${reason}`)
  })
  required.run()
}

/** A database name no one else uses, which a suite may drop. */
export const throwawayDbName = (): string => `petstore_test_${randomBytes(6).toString('hex')}`

/** One mongod for the whole file, started by the first test that needs it and stopped by the last suite. */
export const sharedMongod = (source: Exclude<MongodSource, { kind: 'none' }>, topology: 'standalone' | 'replica set' = 'standalone') => {
  let running: Promise<RunningMongod> | undefined
  return {
    uri: async () => (await (running ??= startMongod(source, topology))).uri,
    stop: async () => (running === undefined ? undefined : (await running).stop()),
  }
}

/**
 * A fresh throwaway database for one test. Each `connect` opens another client on it, as another
 * service instance would; `dispose` drops the database and closes every client.
 */
export const throwawayDatabase = (uri: string) => {
  const dbName = throwawayDbName()
  const clients: MongoClient[] = []
  return {
    dbName,
    connect: async (): Promise<Db> => {
      const client = await new MongoClient(uri, { serverSelectionTimeoutMS: 5000 }).connect()
      clients.push(client)
      return client.db(dbName)
    },
    dispose: async (): Promise<void> => {
      await clients[0]?.db(dbName).dropDatabase()
      await Promise.all(clients.map((client) => client.close()))
    },
  }
}

/**
 * The contract's times for a MongoDB store, which reads the server's clock: the test's clock
 * becomes an offset to it, read at each call. The server then sees the test's clock plus the
 * latency of the call (the contract moves its clock by whole seconds), and records dated a year
 * ahead, as the contract's clock is, are never deleted by the TTL monitor mid-test.
 */
export const onServerClock = ({ recordTtlMs, leaseMs, clock }: Required<IdempotencyTimes>): Required<MongoIdempotencyTimes> => ({
  recordTtlMs,
  leaseMs,
  clockOffsetMs: () => clock.now() - Date.now(),
})

/**
 * Turns the server's fail point `name` on until `release` turns it off. A mongod started here allows
 * it; a server given by PETSTORE_TEST_MONGODB_URI must run with `--setParameter enableTestCommands=1`.
 */
export const failPoint = async (client: MongoClient, name: string): Promise<{ readonly release: () => Promise<void> }> => {
  const admin = client.db('admin')
  await admin.command({ configureFailPoint: name, mode: 'alwaysOn' }).catch((error: unknown) => {
    throw new Error(`the fail point ${name} could not be set (is the mongod run with enableTestCommands=1?): ${String(error)}`)
  })
  return { release: async () => void (await admin.command({ configureFailPoint: name, mode: 'off' })) }
}

/** The member that the replica set's members know as primary (`hello`, from whichever answers), if there is one. */
export const primaryOf = async (admin: Db): Promise<string | undefined> => {
  const hello = await admin.command({ hello: 1 }, { readPreference: 'primaryPreferred' })
  return typeof hello.primary === 'string' ? hello.primary : undefined
}

/** ExceededTimeLimit: the step-down found no electable secondary caught up within its catch-up period. */
const EXCEEDED_TIME_LIMIT = 262
/** A bound on asking again, for a set whose secondaries never catch up. */
const STEP_DOWN_ATTEMPTS = 5

/**
 * Asks the primary to step down and stay ineligible for a minute, so that another member is
 * elected. Any failure is thrown, but for the one the server documents as passing: no electable
 * secondary caught up within the catch-up period (the primary then stays primary), which is asked
 * again. From MongoDB 4.2 the primary answers a step-down; it no longer drops its connections.
 */
export const stepDown = async (admin: Db): Promise<void> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await admin.command({ replSetStepDown: 60, secondaryCatchUpPeriodSecs: 10 })
      return
    } catch (error) {
      const passing = error instanceof MongoServerError && error.code === EXCEEDED_TIME_LIMIT
      if (!passing || attempt === STEP_DOWN_ATTEMPTS) throw error
    }
  }
}
