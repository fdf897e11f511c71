import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * `npm run bench`, in one run: the bare node:http server against the minimal server (the limit);
 * the composed service against the minimal server, with every feature at its default and with
 * each feature turned off in turn (what each costs); the service against json-server; what a
 * hostile body costs; how list and get scale to 1,000,000 pets and the memory that takes. Rounds
 * alternate between the servers compared, so that a noisy moment of the machine hits them all.
 * Figures only: nothing here passes or fails (docs/performance.md).
 */

const QUICK = process.env.BENCH_QUICK === '1'
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? '1' : '3'))
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? '2' : '5'))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? '16')
const KEY = 'bench-key-0123456789abcdef'
const PETS = 1000
const SERVICE = resolve(__dirname, 'seeded-service.js')
const RAW = resolve(__dirname, 'raw-server.js')
const LADDER = resolve(__dirname, 'ladder-server.js')
const BARE = resolve(__dirname, 'bare-server.js')
const JSON_SERVER = resolve(__dirname, '../../../node_modules/json-server/lib/cli/bin.js')
const SERVER_CORE = '0'
const LOAD_CORE = cpus().length > 1 ? '1' : '0'

interface Scenario {
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  /** json-server 0.17's spelling of the same request. */
  readonly jsonServerPath: string
  /** The wrk script that sends it; none for a plain GET. */
  readonly script?: string
}

const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'))
const script = (name: string, text: string): string => {
  const file = join(work, name)
  writeFileSync(file, text)
  return file
}
const POST_BODY = '{"name":"Rex","categoryId":1,"status":"sold"}'
const POST = script('post.lua', `wrk.method = "POST"\nwrk.body = '${POST_BODY}'\nwrk.headers["Content-Type"] = "application/json"\n`)
/** Every request a new Idempotency-Key, so that each is a first create, never a replay. */
const POST_IDEMPOTENT = script(
  'post-idempotent.lua',
  `wrk.method = "POST"\nwrk.body = '${POST_BODY}'\nwrk.headers["Content-Type"] = "application/json"\n` +
    `local n = 0\nrequest = function()\n  n = n + 1\n  wrk.headers["Idempotency-Key"] = "bench-" .. n\n  return wrk.format()\nend\n`,
)

const LIST: Scenario = { name: 'list (limit 20)', method: 'GET', path: '/v1/pets?limit=20', jsonServerPath: '/pets?_limit=20' }
const SCENARIOS: ReadonlyArray<Scenario> = [
  LIST,
  { name: 'list status=sold', method: 'GET', path: '/v1/pets?limit=20&status=sold', jsonServerPath: '/pets?status=sold&_limit=20' },
  { name: 'get by id', method: 'GET', path: `/v1/pets/${PETS / 2}`, jsonServerPath: `/pets/${PETS / 2}` },
  // Last: the pets it adds come after every page and id the other scenarios read.
  { name: 'create', method: 'POST', path: '/v1/pets', jsonServerPath: '/pets', script: POST },
]
const IDEMPOTENT_CREATE: Scenario = { ...SCENARIOS[3]!, name: 'create, Idempotency-Key', script: POST_IDEMPOTENT }

/** The features measured by turning each off (seeded-service.ts, BENCH_OFF), and the scenarios each applies to. */
const FEATURES: ReadonlyArray<{ readonly name: string; readonly off: string; readonly reads: boolean }> = [
  { name: 'log line', off: 'log', reads: false },
  { name: 'metrics', off: 'metrics', reads: false },
  { name: 'ETag', off: 'etag', reads: true },
  { name: 'request id', off: 'request-id', reads: false },
]

interface Measure {
  readonly rps: number
  readonly p99Ms: number
  /** CPU time of the server (user and system) per request answered, in µs. */
  readonly cpuUs: number
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

let nextPort = 19_100

/** json-server's database: the same pets the service is seeded with. */
const jsonServerDb = (pets: number): string =>
  script(
    `db-${pets}.json`,
    JSON.stringify({
      pets: Array.from({ length: pets }, (_, index) => ({
        id: index + 1,
        name: `pet ${index}`,
        categoryId: index % 10,
        status: ['available', 'pending', 'sold'][index % 3],
      })),
    }),
  )

interface Server {
  readonly name: string
  readonly url: string
  readonly child: ChildProcess
}

const startServer = async (
  name: string,
  entry: string,
  options: { pets?: number; env?: Record<string, string>; ready?: string } = {},
): Promise<Server> => {
  const pets = options.pets ?? PETS
  const port = nextPort++
  const devNull = openSync('/dev/null', 'w')
  const isJsonServer = entry === JSON_SERVER
  const child = spawn(
    'taskset',
    ['-c', SERVER_CORE, process.execPath, entry, ...(isJsonServer ? ['--port', String(port), '--quiet', jsonServerDb(pets)] : [])],
    {
      env: { PATH: process.env.PATH ?? '', PETSTORE_API_KEYS: KEY, PORT: String(port), BENCH_PETS: String(pets), ...options.env },
      stdio: ['ignore', devNull, 'inherit'],
    },
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    try {
      const ready = options.ready ?? (isJsonServer ? '/pets/1' : '/v1/pets?limit=1')
      const response = await fetch(`${url}${ready}`, { headers: { authorization: `Bearer ${KEY}` } })
      await response.arrayBuffer()
      if (response.ok) return { name, url, child }
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200))
  }
  throw new Error(`${name} did not start`)
}

const stopServer = async (server: Server): Promise<void> => {
  server.child.kill('SIGTERM')
  await once(server.child, 'exit')
}

const stopAll = (servers: ReadonlyArray<Server>): Promise<unknown> => Promise.all(servers.map(stopServer))

const toMs = (value: string, unit: string): number => Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1)

/** CPU time of a process so far, in ms, from /proc (user + system, in clock ticks of 10 ms). */
const cpuMs = (server: Server): number => {
  const fields =
    readFileSync(`/proc/${server.child.pid ?? 0}/stat`, 'utf8')
      .split(') ')[1]
      ?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const wrk = (server: Server, scenario: Scenario, path = scenario.path): Measure => {
  const before = cpuMs(server)
  const url = server.url
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
      ...(scenario.script === undefined ? [] : ['-s', scenario.script]),
      `${url}${path}`,
    ],
    { encoding: 'utf8' },
  )
  const cpu = cpuMs(server) - before
  if (/Non-2xx/.test(output)) throw new Error(`non-2xx answers in ${scenario.name} on ${url}:\n${output}`)
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? '0')
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? '0')
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(output)
  return { rps, p99Ms: p99 === null ? NaN : toMs(p99[1] ?? '0', p99[2] ?? 'ms'), cpuUs: (cpu * 1000) / requests }
}

const pad = (value: number | string, width = 9, digits = 0): string =>
  (typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(digits) : '—') : value).padStart(width)

/**
 * Measures `server` with every other server of its group stopped (SIGSTOP) and resumed after: idle,
 * they still wake on the servers' core (log flushes, the metrics' event-loop monitor) and would
 * slow whichever server is measured, the fastest most.
 */
const alone = (server: Server, group: ReadonlyArray<Server>, scenario: Scenario): Measure => {
  const others = group.filter((other) => other !== server)
  for (const other of others) other.child.kill('SIGSTOP')
  try {
    return wrk(server, scenario)
  } finally {
    for (const other of others) other.child.kill('SIGCONT')
  }
}

/**
 * Per scenario, ROUNDS rounds in which every server is measured once, in turn, alone; the median of each.
 * Every scenario runs once on every server first, so that the JIT has settled.
 */
const alternate = (
  servers: ReadonlyArray<Server>,
  scenarios: ReadonlyArray<Scenario>,
  applies: (server: Server, scenario: Scenario) => boolean = () => true,
): Map<string, Map<string, Measure>> => {
  for (const server of servers) for (const scenario of scenarios) if (applies(server, scenario)) alone(server, servers, scenario)
  const results = new Map<string, Map<string, Measure>>()
  for (const scenario of scenarios) {
    const runs = new Map<string, Measure[]>()
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const server of servers) {
        if (!applies(server, scenario)) continue
        runs.set(server.name, [...(runs.get(server.name) ?? []), alone(server, servers, scenario)])
      }
    }
    results.set(
      scenario.name,
      new Map(
        [...runs].map(([name, measures]) => [
          name,
          {
            rps: median(measures.map((measure) => measure.rps)),
            p99Ms: median(measures.map((measure) => measure.p99Ms)),
            cpuUs: median(measures.map((measure) => measure.cpuUs)),
          },
        ]),
      ),
    )
  }
  return results
}

/** Microseconds of one core per request, from requests per second with the server's core saturated. */
const usPerRequest = (rps: number): number => 1e6 / rps

const limit = async (): Promise<void> => {
  const servers = [await startServer('bare', BARE), await startServer('minimal', RAW)]
  try {
    const list = alternate(servers, [LIST]).get(LIST.name)
    const bare = list?.get('bare')
    const minimal = list?.get('minimal')
    console.log(`\nThe limit: list (limit 20) on the minimal server against a bare node:http server sending a fixed JSON array`)
    console.log(
      `bare rps ${pad(bare?.rps ?? NaN)} (${pad(bare?.cpuUs ?? NaN, 0, 1)} µs CPU per request)   ` +
        `minimal rps ${pad(minimal?.rps ?? NaN)} (${pad(minimal?.cpuUs ?? NaN, 0, 1)} µs)   ` +
        `minimal/bare ${pad((minimal?.rps ?? NaN) / (bare?.rps ?? NaN), 5, 2)}`,
    )
  } finally {
    await stopAll(servers)
  }
}

const againstMinimal = async (): Promise<void> => {
  const variants = FEATURES.map((feature) => ({ feature, env: { BENCH_OFF: feature.off } }))
  const servers = [
    await startServer('minimal', RAW),
    await startServer('service', SERVICE),
    ...(await Promise.all(variants.map((variant) => startServer(`no ${variant.feature.name}`, SERVICE, { env: variant.env })))),
  ]
  const applies = (server: Server, scenario: Scenario): boolean => {
    if (scenario === IDEMPOTENT_CREATE) return server.name === 'service'
    const feature = FEATURES.find((candidate) => server.name === `no ${candidate.name}`)
    return feature === undefined || !feature.reads || scenario.method === 'GET'
  }
  try {
    const results = alternate(servers, [...SCENARIOS.slice(0, 3), IDEMPOTENT_CREATE, SCENARIOS[3]!], applies)
    console.log(
      `\nThe service (every feature at its default) against the minimal server: ${PETS} pets, ${CONNECTIONS} connections, ` +
        `${ROUNDS} alternating rounds of ${SECONDS}s, medians`,
    )
    console.log(
      'endpoint              service rps  minimal rps  service/minimal  service p99 ms  minimal p99 ms  service CPU µs  minimal CPU µs',
    )
    for (const scenario of SCENARIOS) {
      const service = results.get(scenario.name)?.get('service')
      const minimal = results.get(scenario.name)?.get('minimal')
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service?.rps ?? NaN, 11)}  ${pad(minimal?.rps ?? NaN, 11)}  ` +
          `${pad((service?.rps ?? NaN) / (minimal?.rps ?? NaN), 15, 2)}  ${pad(service?.p99Ms ?? NaN, 14, 2)}  ` +
          `${pad(minimal?.p99Ms ?? NaN, 14, 2)}  ${pad(service?.cpuUs ?? NaN, 14, 1)}  ${pad(minimal?.cpuUs ?? NaN, 14, 1)}`,
      )
    }
    console.log(
      '\nWhat each feature costs: CPU µs per request of the service with every feature on, less with that one off ' +
        '(in brackets: the same from requests per second, 1e6/rps)',
    )
    console.log(`endpoint              defaults µs  ${FEATURES.map((feature) => feature.name.padStart(18)).join('')}`)
    for (const scenario of SCENARIOS) {
      const measured = results.get(scenario.name)
      const service = measured?.get('service')
      const costs = FEATURES.map((feature) => {
        const off = measured?.get(`no ${feature.name}`)
        if (off === undefined || service === undefined) return pad('—', 18)
        const fromRps = usPerRequest(service.rps) - usPerRequest(off.rps)
        return pad(`${(service.cpuUs - off.cpuUs).toFixed(1)} (${fromRps.toFixed(1)})`, 18)
      })
      console.log(`${scenario.name.padEnd(20)} ${pad(service?.cpuUs ?? NaN, 11, 1)}  ${costs.join('')}`)
    }
    const plain = results.get(SCENARIOS[3]!.name)?.get('service')
    const keyed = results.get(IDEMPOTENT_CREATE.name)?.get('service')
    console.log(
      `An Idempotency-Key create (a new key each time): ${pad(keyed?.cpuUs ?? NaN, 0, 1)} µs CPU (${pad(keyed?.rps ?? NaN, 0)} rps) ` +
        `against ${pad(plain?.cpuUs ?? NaN, 0, 1)} µs (${pad(plain?.rps ?? NaN, 0)} rps) without a key: ` +
        `${((keyed?.cpuUs ?? NaN) - (plain?.cpuUs ?? NaN)).toFixed(1)} µs more per create`,
    )
  } finally {
    await stopAll(servers)
  }
}

/** A difference with its sign: `+1.2`, `-0.3`. */
const signed = (value: number): string => `${value < 0 ? '' : '+'}${value.toFixed(1)}`

/** Where the time goes: getPet built up a layer at a time (ladder-server.ts), then the service itself. */
const ladder = async (): Promise<void> => {
  const get = SCENARIOS[2]!
  const rungs = ['koa', 'dispatch', 'edge', 'auth', 'operation']
  const servers = [
    await startServer('minimal', RAW),
    ...(await Promise.all(rungs.map((rung) => startServer(rung, LADDER, { env: { BENCH_RUNG: rung }, ready: '/v1/pets/1' })))),
    await startServer('service', SERVICE),
  ]
  const labels: Readonly<Record<string, string>> = {
    minimal: 'the minimal server',
    koa: 'Koa, answering from a Map',
    dispatch: '+ the dispatch of the pet operations',
    edge: '+ edge: request id, common headers, error boundary',
    auth: '+ authentication',
    operation: '+ the operation: use case, ETag, deprecation headers',
    service: '+ log line, metrics, the other routes: the service',
  }
  try {
    const measured = alternate(servers, [get]).get(get.name)
    console.log(`\nWhere the time goes: ${get.name}, built up a layer at a time (CPU µs per request, medians; rps)`)
    let previous: number | undefined
    for (const server of servers) {
      const measure = measured?.get(server.name)
      const added = previous === undefined || server.name === 'koa' ? '' : signed((measure?.cpuUs ?? NaN) - previous)
      console.log(
        `${(labels[server.name] ?? server.name).padEnd(55)} ${pad(measure?.cpuUs ?? NaN, 7, 1)}  ${added.padStart(7)}  ${pad(measure?.rps ?? NaN, 8)}`,
      )
      previous = measure?.cpuUs
    }
  } finally {
    await stopAll(servers)
  }
}

const againstJsonServer = async (): Promise<void> => {
  const servers = [await startServer('service', SERVICE), await startServer('json-server', JSON_SERVER)]
  try {
    const asJsonServer = (scenario: Scenario): Scenario => ({ ...scenario, path: scenario.jsonServerPath })
    console.log(`\nThe service against json-server 0.17: ${PETS} pets, the same rounds (rps, medians)`)
    console.log('endpoint              service rps  json-server rps  service/json-server')
    for (const scenario of SCENARIOS) {
      const [service, jsonServer] = servers
      if (service === undefined || jsonServer === undefined) return
      wrk(service, scenario)
      wrk(jsonServer, asJsonServer(scenario))
      const serviceRuns: number[] = []
      const jsonServerRuns: number[] = []
      for (let round = 0; round < ROUNDS; round += 1) {
        serviceRuns.push(wrk(service, scenario).rps)
        jsonServerRuns.push(wrk(jsonServer, asJsonServer(scenario)).rps)
      }
      const serviceRps = median(serviceRuns)
      const jsonServerRps = median(jsonServerRuns)
      console.log(
        `${scenario.name.padEnd(20)} ${pad(serviceRps, 11)}  ${pad(jsonServerRps, 15)}  ${pad(serviceRps / jsonServerRps, 18, 1)}x`,
      )
    }
  } finally {
    await stopAll(servers)
  }
}

/** About 1 MiB: the three fields of a pet, then 90,000 keys the service ignores. */
const hostileBody = (): string => {
  const ignored = Array.from({ length: 90_000 }, (_, index) => `"k${index.toString().padStart(5, '0')}":0`)
  return `{"name":"Rex","categoryId":1,${ignored.join(',')}}`
}

const post = async (server: Server, body: string, key?: string): Promise<number> => {
  const response = await fetch(`${server.url}/v1/pets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body,
  })
  await response.arrayBuffer()
  return response.status
}

let keys = 0
const newKey = (): string => `hostile-${(keys += 1)}`

/** CPU per create, averaged over `count` sequential creates. */
const cpuPerCreate = async (server: Server, body: string, count: number, withKey: boolean): Promise<number> => {
  for (let index = 0; index < 3; index += 1) await post(server, body, withKey ? newKey() : undefined)
  const before = cpuMs(server)
  for (let index = 0; index < count; index += 1) {
    const status = await post(server, body, withKey ? newKey() : undefined)
    if (status !== 201) throw new Error(`a create answered ${status}`)
  }
  return (cpuMs(server) - before) / count
}

/** Latencies of small GETs sent one after another for `ms`, while `load` runs. */
const latencies = async (server: Server, ms: number): Promise<number[]> => {
  const times: number[] = []
  const end = performance.now() + ms
  while (performance.now() < end) {
    const started = performance.now()
    const response = await fetch(`${server.url}/v1/pets/1`, { headers: { authorization: `Bearer ${KEY}` } })
    await response.arrayBuffer()
    times.push(performance.now() - started)
  }
  return times
}

const percentile = (values: ReadonlyArray<number>, share: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN
}

const hostileBodies = async (): Promise<void> => {
  const server = await startServer('service', SERVICE)
  const hostile = hostileBody()
  const count = QUICK ? 5 : 20
  try {
    const small = await cpuPerCreate(server, POST_BODY, QUICK ? 200 : 1000, false)
    const plain = await cpuPerCreate(server, hostile, count, false)
    const keyed = await cpuPerCreate(server, hostile, count, true)
    const ms = QUICK ? 2000 : SECONDS * 1000
    const alone = await latencies(server, ms)
    let running = true
    const attackers = Array.from({ length: 3 }, async () => {
      while (running) await post(server, hostile, newKey())
    })
    const underLoad = await latencies(server, ms)
    running = false
    await Promise.all(attackers)
    console.log(`\nHostile bodies: ${(Buffer.byteLength(hostile) / 1024).toFixed(0)} KiB, 90,000 keys the service ignores`)
    console.log(
      `CPU per create: ${small.toFixed(2)} ms for a small body; ${plain.toFixed(1)} ms for the hostile body, ${keyed.toFixed(1)} ms with an Idempotency-Key`,
    )
    console.log(
      `A small GET, one at a time: median ${percentile(alone, 0.5).toFixed(2)} ms, p99 ${percentile(alone, 0.99).toFixed(2)} ms alone; ` +
        `median ${percentile(underLoad, 0.5).toFixed(2)} ms, p99 ${percentile(underLoad, 0.99).toFixed(2)} ms while 3 clients send hostile bodies`,
    )
  } finally {
    await stopServer(server)
  }
}

const residentMb = (server: Server): number => {
  const status = readFileSync(`/proc/${server.child.pid ?? 0}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? '0') / 1024
}

const scaling = async (): Promise<void> => {
  const reads = SCENARIOS.filter((scenario) => scenario.method === 'GET')
  const results = new Map<string, number[]>()
  let memory = 0
  for (const pets of [1000, 1_000_000]) {
    const server = await startServer('service', SERVICE, { pets })
    try {
      if (pets === 1_000_000) memory = residentMb(server)
      for (const scenario of reads) {
        const path = scenario.name === 'get by id' ? `/v1/pets/${pets / 2}` : scenario.path
        wrk(server, scenario, path)
        const runs = Array.from({ length: ROUNDS }, () => wrk(server, scenario, path).rps)
        results.set(scenario.name, [...(results.get(scenario.name) ?? []), median(runs)])
      }
    } finally {
      await stopServer(server)
    }
  }
  console.log('\nScaling of the service (rps, medians)')
  console.log('endpoint              1,000 pets  1,000,000 pets  change')
  for (const [name, [small = 0, large = 0]] of results) {
    console.log(`${name.padEnd(20)} ${pad(small, 10)}  ${pad(large, 14)}  ${pad((100 * (large - small)) / small, 6, 1)}%`)
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
  // This process sends the hostile bodies and times the small requests: it stays off the servers' core.
  execFileSync('taskset', ['-cp', LOAD_CORE, String(process.pid)], { stdio: 'ignore' })
  console.log(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; servers on core ${SERVER_CORE}, ` +
      `wrk and this process on core ${LOAD_CORE}; ${ROUNDS} rounds of ${SECONDS}s${QUICK ? ' (BENCH_QUICK)' : ''}`,
  )
  const parts: ReadonlyArray<readonly [string, () => Promise<void>]> = [
    ['limit', limit],
    ['service', againstMinimal],
    ['ladder', ladder],
    ['json-server', againstJsonServer],
    ['hostile', hostileBodies],
    ['scaling', scaling],
  ]
  const chosen = (process.env.BENCH_PARTS ?? '').split(',').filter((part) => part !== '')
  const skipped = new Set([...(QUICK ? ['scaling'] : []), ...(process.env.BENCH_JSON_SERVER === 'off' ? ['json-server'] : [])])
  for (const [name, run] of parts) {
    if (chosen.length > 0 ? chosen.includes(name) : !skipped.has(name)) await run()
  }
}

void main()
