import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { openSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createNetServer } from 'node:net'
import { resolve } from 'node:path'
import { KEY, PETS, POST_BODY, ROUNDS, type Scenario, work } from './scenarios.js'

/** The servers the benchmark starts, each on the servers' core, and what it reads of their processes. */
export const SERVICE = resolve(__dirname, 'seeded-service.js')
export const RAW = resolve(__dirname, 'raw-server.js')
export const STRAIGHTFORWARD = resolve(__dirname, 'straightforward-server.js')
export const LADDER = resolve(__dirname, 'ladder-server.js')
export const BARE = resolve(__dirname, 'bare-server.js')
// This file is <root>/<outDir>/test/bench/servers.js; <root> holds node_modules (the project itself, or a directory
// with a link to the project's node_modules, for a build to another --outDir).
export const NODE_MODULES = resolve(__dirname, '../../../node_modules')
export const JSON_SERVER = resolve(NODE_MODULES, 'json-server/lib/cli/bin.js')
export const SERVER_CORE = '0'

export interface Server {
  readonly name: string
  readonly url: string
  readonly child: ChildProcess
}

export const isJsonServer = (server: Server): boolean => server.name === 'json-server'

let nextPort = 19_100

/**
 * The next port from 19100 upwards that nothing listens on: a port taken by another program (another
 * benchmark run, say) would make the ready check below reach that program instead of the child.
 */
const freePort = async (): Promise<number> => {
  for (;;) {
    const port = nextPort++
    const probe = createNetServer()
    const free = await new Promise<boolean>((done) => {
      probe.once('error', () => done(false))
      probe.listen(port, '127.0.0.1', () => done(true))
    })
    if (free) {
      await new Promise((done) => probe.close(done))
      return port
    }
  }
}

/** json-server's database: the same pets the service is seeded with. */
const jsonServerDb = (pets: number): string => {
  const file = resolve(work, `db-${pets}.json`)
  const statuses = ['available', 'pending', 'sold']
  const rows = Array.from({ length: pets }, (_, index) => ({
    id: index + 1,
    name: `pet ${index}`,
    categoryId: index % 10,
    status: statuses[index % 3],
  }))
  writeFileSync(file, JSON.stringify({ pets: rows }))
  return file
}

/**
 * Starts `command(port)` on the servers' core and waits until `ready` answers 2xx. stdout (the
 * request log lines) goes to /dev/null, as a service's would go to a collector.
 */
export const startProcess = async (
  name: string,
  command: (port: number) => ReadonlyArray<string>,
  options: { readonly env?: Record<string, string>; readonly ready: string },
): Promise<Server> => {
  const port = await freePort()
  const devNull = openSync('/dev/null', 'w')
  const child = spawn('taskset', ['-c', SERVER_CORE, ...command(port)], {
    env: { PATH: process.env.PATH ?? '', PETSTORE_API_KEYS: KEY, PORT: String(port), ...options.env },
    stdio: ['ignore', devNull, 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const response = await fetch(`${url}${options.ready}`, { headers: { authorization: `Bearer ${KEY}` } })
      await response.arrayBuffer()
      // Still running: the answer is the child's, not another program's on the same port.
      if (response.ok && child.exitCode === null) return { name, url, child }
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200))
  }
  child.kill('SIGKILL')
  throw new Error(`${name} did not start`)
}

/** A Node server of test/bench (or json-server) with `pets` pets, BENCH_PETS to the ones that read it. */
export const startServer = (
  name: string,
  entry: string,
  options: { pets?: number; env?: Record<string, string>; ready?: string } = {},
): Promise<Server> => {
  const pets = options.pets ?? PETS
  const jsonServer = entry === JSON_SERVER
  return startProcess(
    name,
    (port) => [process.execPath, entry, ...(jsonServer ? ['--port', String(port), '--quiet', jsonServerDb(pets)] : [])],
    {
      env: { BENCH_PETS: String(pets), ...options.env },
      ready: options.ready ?? (jsonServer ? '/pets/1' : '/v1/pets?limit=1'),
    },
  )
}

/**
 * One process of a build for each round (ROUNDS), all of the same name: `alternate` measures a
 * different one in each round, since two processes of one build differ for their whole life.
 */
export const startProcesses = async (
  name: string,
  entry: string,
  options: { pets?: number; env?: Record<string, string>; ready?: string } = {},
): Promise<Server[]> => {
  const processes: Server[] = []
  try {
    for (let round = 0; round < ROUNDS; round += 1) processes.push(await startServer(name, entry, options))
  } catch (error) {
    await stopAll(processes)
    throw error
  }
  return processes
}

export const stopServer = async (server: Server): Promise<void> => {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return
  server.child.kill('SIGCONT')
  server.child.kill('SIGTERM')
  await once(server.child, 'exit')
}

export const stopAll = (servers: ReadonlyArray<Server>): Promise<unknown> => Promise.all(servers.map(stopServer))

/** The fields of /proc/<pid>/stat after the command's name. */
const statFields = (pid: number | string): ReadonlyArray<string> =>
  readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []

/**
 * Whether a server's process has ended (a zombie not yet reaped: the event loop is blocked while wrk
 * runs). Its log goes to /dev/null, so this is all that says why wrk found nothing listening.
 */
export const hasEnded = (server: Server): boolean => {
  try {
    return server.child.exitCode !== null || statFields(server.child.pid ?? 0)[0] === 'Z'
  } catch {
    return true
  }
}

/** CPU time of a process so far, in ms, from /proc (user + system of all its threads, in clock ticks of 10 ms). */
export const cpuMs = (server: Server): number => {
  const fields = statFields(server.child.pid ?? 0)
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** CPU time of this process and of its children already waited for (each wrk run), in ms. */
export const ownMs = (): number => {
  const fields = statFields('self')
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10
}

export const residentMb = (server: Server): number => {
  const status = readFileSync(`/proc/${server.child.pid ?? 0}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? '0') / 1024
}

/** json-server is asked the same things in its own query language. */
export const pathFor = (server: Server, scenario: Scenario): string => (isJsonServer(server) ? scenario.jsonServerPath : scenario.path)

/** One request of `scenario`, as wrk sends it; the answer. */
export const answerOf = (server: Server, scenario: Scenario): Promise<Response> =>
  fetch(`${server.url}${pathFor(server, scenario)}`, {
    method: scenario.method,
    headers: { authorization: `Bearer ${KEY}`, ...(scenario.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(scenario.method === 'POST' ? { body: POST_BODY } : {}),
  })

/** The status and body text of one request of `scenario`. */
const ask = async (server: Server, scenario: Scenario): Promise<string> => {
  const response = await answerOf(server, scenario)
  return `${response.status} ${await response.text()}`
}

/**
 * Before any figure: every server of `servers` but `reference` gives `reference`'s statuses and
 * body bytes to the benchmark's requests, so that they all do the same work. Servers must be fresh
 * (a create's answer carries the next id). A difference stops the run: the figures would compare
 * unlike work.
 */
export const checkSameAnswers = async (
  reference: Server,
  servers: ReadonlyArray<Server>,
  scenarios: ReadonlyArray<Scenario>,
): Promise<void> => {
  const others = servers.filter((server) => server !== reference)
  for (const scenario of scenarios) {
    const expected = await ask(reference, scenario)
    for (const other of others) {
      const actual = await ask(other, scenario)
      if (actual !== expected) {
        throw new Error(
          `${other.name} answers ${scenario.name} unlike ${reference.name}:\n  ${actual.slice(0, 300)}\n  ${expected.slice(0, 300)}`,
        )
      }
    }
  }
  // Processes of one build share a name: each name once.
  const names = [...new Set(others.map((other) => other.name))]
  console.log(
    `(Checked first: ${names.join(', ')} give${names.length === 1 ? 's' : ''} the ${reference.name}'s ` +
      `statuses and body bytes for ${scenarios.map((scenario) => scenario.name).join(', ')}.)`,
  )
}
