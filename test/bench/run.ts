import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * `npm run bench`: the composed service against a raw node:http server doing the same work, in
 * alternating rounds, with wrk pinned to another core. Prints requests per second, the ratio
 * service/limit and p99 latency per endpoint, how list and get scale to 1,000,000 pets, and the
 * resident memory with 1,000,000 pets. Figures only: nothing here passes or fails.
 */

const KEY = 'bench-key-0123456789abcdef'
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '3')
const SECONDS = Number(process.env.BENCH_SECONDS ?? '5')
const CONNECTIONS = 50
const SERVICE = resolve(__dirname, 'seeded-service.js')
const JSON_SERVER = resolve(__dirname, '../../../node_modules/json-server/lib/cli/bin.js')
const RAW = resolve(__dirname, 'raw-server.js')
const SERVER_CORE = '0'
const LOAD_CORE = cpus().length > 1 ? '1' : '0'

interface Scenario {
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly path: (pets: number) => string
}

const SCENARIOS: ReadonlyArray<Scenario> = [
  { name: 'list (limit 20)', method: 'GET', path: () => '/v1/pets?limit=20' },
  { name: 'list status=sold', method: 'GET', path: () => '/v1/pets?limit=20&status=sold' },
  { name: 'get by id', method: 'GET', path: (pets) => `/v1/pets/${Math.floor(pets / 2)}` },
  { name: 'create', method: 'POST', path: () => '/v1/pets' },
]

interface Measure {
  readonly rps: number
  readonly p99Ms: number
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

let nextPort = 19_100
const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'))
const POST_SCRIPT = join(work, 'post.lua')
writeFileSync(
  POST_SCRIPT,
  `wrk.method = "POST"\nwrk.body = '{"name":"Rex","categoryId":1,"status":"sold"}'\nwrk.headers["Content-Type"] = "application/json"\n`,
)

/** json-server's database: the same pets the service is seeded with. */
const jsonServerDb = (pets: number): string => {
  const file = join(work, `db-${pets}.json`)
  const statuses = ['available', 'pending', 'sold']
  writeFileSync(
    file,
    JSON.stringify({
      pets: Array.from({ length: pets }, (_, index) => ({
        id: index + 1,
        name: `pet ${index}`,
        categoryId: index % 10,
        status: statuses[index % 3],
      })),
    }),
  )
  return file
}

/** The same work in json-server 0.17's query language (it has no authentication). */
const JSON_SERVER_PATHS: Readonly<Record<string, (pets: number) => string>> = {
  'list (limit 20)': () => '/pets?_limit=20',
  'list status=sold': () => '/pets?status=sold&_limit=20',
  'get by id': (pets) => `/pets/${Math.floor(pets / 2)}`,
  create: () => '/pets',
}

interface Server {
  readonly url: string
  readonly child: ChildProcess
}

const startServer = async (entry: string, pets: number): Promise<Server> => {
  const port = nextPort++
  const devNull = openSync('/dev/null', 'w')
  const child = spawn(
    'taskset',
    ['-c', SERVER_CORE, process.execPath, entry, ...(entry === JSON_SERVER ? ['--port', String(port), '--quiet', jsonServerDb(pets)] : [])],
    {
      env: { PATH: process.env.PATH ?? '', PETSTORE_API_KEYS: KEY, PORT: String(port), BENCH_PETS: String(pets) },
      stdio: ['ignore', devNull, 'inherit'],
    },
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}${entry === JSON_SERVER ? '/pets/1' : '/v1/pets?limit=1'}`, {
        headers: { authorization: `Bearer ${KEY}` },
      })
      if (response.ok) return { url, child }
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200))
  }
  throw new Error(`${entry} did not start`)
}

const stopServer = async (server: Server): Promise<void> => {
  server.child.kill('SIGTERM')
  await once(server.child, 'exit')
}

const residentMb = (server: Server): number => {
  const status = readFileSync(`/proc/${server.child.pid ?? 0}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? '0') / 1024
}

const toMs = (value: string, unit: string): number => Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1)

const wrk = (url: string, scenario: Scenario, pets: number): Measure => {
  const output = execFileSync(
    'taskset',
    [
      '-c',
      LOAD_CORE,
      'wrk',
      '-t1',
      `-c${CONNECTIONS}`,
      `-d${SECONDS}s`,
      '--latency',
      '-H',
      `Authorization: Bearer ${KEY}`,
      ...(scenario.method === 'POST' ? ['-s', POST_SCRIPT] : []),
      `${url}${scenario.path(pets)}`,
    ],
    { encoding: 'utf8' },
  )
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? '0')
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(output)
  if (/Non-2xx/.test(output)) throw new Error(`non-2xx answers in ${scenario.name}:\n${output}`)
  return { rps, p99Ms: p99 === null ? NaN : toMs(p99[1] ?? '0', p99[2] ?? 'ms') }
}

const format = (value: number, digits = 0): string => value.toFixed(digits).padStart(8)

/** Every endpoint once on each server before anything is measured, so JIT tiering is done. */
const warmUp = (servers: ReadonlyArray<Server>, pets: number): void => {
  for (const server of servers) for (const scenario of SCENARIOS) wrk(server.url, scenario, pets)
}

const compare = async (pets: number): Promise<void> => {
  const service = await startServer(SERVICE, pets)
  const raw = await startServer(RAW, pets)
  warmUp([service, raw], pets)
  console.log(`\nService vs raw node:http, ${pets} pets, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS}s, medians`)
  console.log('endpoint              service rps  raw rps   ratio  service p99 ms  raw p99 ms')
  try {
    for (const scenario of SCENARIOS) {
      const serviceRuns: Measure[] = []
      const rawRuns: Measure[] = []
      for (let round = 0; round < ROUNDS; round += 1) {
        serviceRuns.push(wrk(service.url, scenario, pets))
        rawRuns.push(wrk(raw.url, scenario, pets))
      }
      const serviceRps = median(serviceRuns.map((run) => run.rps))
      const rawRps = median(rawRuns.map((run) => run.rps))
      console.log(
        `${scenario.name.padEnd(20)} ${format(serviceRps)}   ${format(rawRps)}  ${format(serviceRps / rawRps, 2)}  ${format(median(serviceRuns.map((run) => run.p99Ms)), 2)}      ${format(median(rawRuns.map((run) => run.p99Ms)), 2)}`,
      )
    }
  } finally {
    await stopServer(service)
    await stopServer(raw)
  }
}

const againstJsonServer = async (pets: number): Promise<void> => {
  const service = await startServer(SERVICE, pets)
  const jsonServer = await startServer(JSON_SERVER, pets)
  console.log(`\nService vs json-server 0.17, ${pets} pets, same rounds (rps, medians)`)
  console.log('endpoint              service rps  json-server rps  service/json-server')
  try {
    for (const scenario of SCENARIOS) {
      const asJsonServer = { ...scenario, path: JSON_SERVER_PATHS[scenario.name] ?? scenario.path }
      wrk(service.url, scenario, pets)
      wrk(jsonServer.url, asJsonServer, pets)
      const serviceRuns: number[] = []
      const jsonServerRuns: number[] = []
      for (let round = 0; round < ROUNDS; round += 1) {
        serviceRuns.push(wrk(service.url, scenario, pets).rps)
        jsonServerRuns.push(wrk(jsonServer.url, asJsonServer, pets).rps)
      }
      const serviceRps = median(serviceRuns)
      const jsonServerRps = median(jsonServerRuns)
      console.log(
        `${scenario.name.padEnd(20)} ${format(serviceRps)}   ${format(jsonServerRps)}        ${format(serviceRps / jsonServerRps, 1)}x`,
      )
    }
  } finally {
    await stopServer(service)
    await stopServer(jsonServer)
  }
}

const scaling = async (): Promise<void> => {
  const reads = SCENARIOS.filter((scenario) => scenario.method === 'GET')
  const results = new Map<string, number[]>()
  let memory = 0
  for (const pets of [1000, 1_000_000]) {
    const service = await startServer(SERVICE, pets)
    try {
      if (pets === 1_000_000) memory = residentMb(service)
      for (const scenario of reads) {
        wrk(service.url, scenario, pets)
        const runs = Array.from({ length: ROUNDS }, () => wrk(service.url, scenario, pets).rps)
        results.set(scenario.name, [...(results.get(scenario.name) ?? []), median(runs)])
      }
    } finally {
      await stopServer(service)
    }
  }
  console.log('\nScaling of the service (rps, medians)')
  console.log('endpoint              1,000 pets  1,000,000 pets  change')
  for (const [name, [small = 0, large = 0]] of results) {
    console.log(`${name.padEnd(20)} ${format(small)}    ${format(large)}     ${format((100 * (large - small)) / small, 1)}%`)
  }
  console.log(`\nResident memory of the service with 1,000,000 pets: ${memory.toFixed(0)} MB`)
}

const main = async (): Promise<void> => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is a problem.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      console.error('npm run bench needs wrk (Debian: apt-get install wrk)')
      process.exit(1)
    }
  }
  console.log(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; servers on core ${SERVER_CORE}, wrk on core ${LOAD_CORE}`,
  )
  await compare(1000)
  if (process.env.BENCH_JSON_SERVER !== 'off') await againstJsonServer(1000)
  await scaling()
}

void main()
