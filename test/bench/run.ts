import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer as createNetServer } from 'node:net'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * `npm run bench`, in one run: the bare node:http server against the minimal server (the limit);
 * the composed service against the minimal server and against a straightforward build of the same
 * operations on the same libraries, with every feature at its default and with each feature that
 * has a setting turned off in turn (what each costs); getPet built up a layer at a time; the
 * service against json-server; what hostile bodies cost; how list and get scale to 1,000,000 pets
 * and the memory that takes. Rounds alternate between the servers compared, so that a noisy moment
 * of the machine hits them all. Figures only: each is printed beside its target, and nothing here
 * passes or fails (docs/performance.md).
 */

const QUICK = process.env.BENCH_QUICK === '1'
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? '1' : '3'))
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? '2' : '5'))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? '16')
const KEY = 'bench-key-0123456789abcdef'
const PETS = 1000
const SERVICE = resolve(__dirname, 'seeded-service.js')
const RAW = resolve(__dirname, 'raw-server.js')
const STRAIGHTFORWARD = resolve(__dirname, 'straightforward-server.js')
const LADDER = resolve(__dirname, 'ladder-server.js')
const BARE = resolve(__dirname, 'bare-server.js')
// This file is <root>/<outDir>/test/bench/run.js; <root> holds node_modules (the project itself, or a directory
// with a link to the project's node_modules, for a build to another --outDir).
const JSON_SERVER = resolve(__dirname, '../../../node_modules/json-server/lib/cli/bin.js')
const SERVER_CORE = '0'
const LOAD_CORE = cpus().length > 1 ? '1' : '0'
/** The service's largest accepted body (PETSTORE_MAX_BODY_BYTES's default): hostile bodies stay under it. */
const MAX_BODY_BYTES = 1024 * 1024

interface Scenario {
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  /** json-server 0.17's spelling of the same request. */
  readonly jsonServerPath: string
  /** The wrk script that sends it; none for a plain GET. */
  readonly script?: string
  /** The service's rps at least this share of the minimal server's (the issue's target). */
  readonly minimalTarget: number
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

const LIST: Scenario = {
  name: 'list (limit 20)',
  method: 'GET',
  path: '/v1/pets?limit=20',
  jsonServerPath: '/pets?_limit=20',
  minimalTarget: 0.45,
}
const GET: Scenario = {
  name: 'get by id',
  method: 'GET',
  path: `/v1/pets/${PETS / 2}`,
  jsonServerPath: `/pets/${PETS / 2}`,
  minimalTarget: 0.3,
}
const CREATE: Scenario = { name: 'create', method: 'POST', path: '/v1/pets', jsonServerPath: '/pets', script: POST, minimalTarget: 0.4 }
const SCENARIOS: ReadonlyArray<Scenario> = [
  LIST,
  {
    name: 'list status=sold',
    method: 'GET',
    path: '/v1/pets?limit=20&status=sold',
    jsonServerPath: '/pets?status=sold&_limit=20',
    minimalTarget: 0.45,
  },
  GET,
  // Last: the pets it adds come after every page and id the other scenarios read.
  CREATE,
]
const IDEMPOTENT_CREATE: Scenario = { ...CREATE, name: 'create, Idempotency-Key', script: POST_IDEMPOTENT }

/** The other targets of the issue, printed beside the figures. */
const STRAIGHTFORWARD_TARGET = 1.3
const P99_TARGET = 2
const JSON_SERVER_TARGET = 8
const PARSE_TARGET = 1.5
const RSS_TARGET_MB = 400

/**
 * The features measured by turning each off (seeded-service.ts, BENCH_OFF): only those with an
 * operator setting. ETags and request ids have none; their cost is in the ladder's last rungs.
 */
const FEATURES: ReadonlyArray<{ readonly name: string; readonly off: string }> = [
  { name: 'log line', off: 'log' },
  { name: 'metrics', off: 'metrics' },
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

const isJsonServer = (server: Server): boolean => server.name === 'json-server'

const startServer = async (
  name: string,
  entry: string,
  options: { pets?: number; env?: Record<string, string>; ready?: string } = {},
): Promise<Server> => {
  const pets = options.pets ?? PETS
  const port = await freePort()
  const devNull = openSync('/dev/null', 'w')
  const jsonServer = entry === JSON_SERVER
  const child = spawn(
    'taskset',
    ['-c', SERVER_CORE, process.execPath, entry, ...(jsonServer ? ['--port', String(port), '--quiet', jsonServerDb(pets)] : [])],
    {
      env: { PATH: process.env.PATH ?? '', PETSTORE_API_KEYS: KEY, PORT: String(port), BENCH_PETS: String(pets), ...options.env },
      // stdout (the request log lines) goes to /dev/null, as a service's would go to a collector.
      stdio: ['ignore', devNull, 'inherit'],
    },
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  while (Date.now() < deadline) {
    try {
      const ready = options.ready ?? (jsonServer ? '/pets/1' : '/v1/pets?limit=1')
      const response = await fetch(`${url}${ready}`, { headers: { authorization: `Bearer ${KEY}` } })
      await response.arrayBuffer()
      // Still running: the answer is the child's, not another program's on the same port.
      if (response.ok && child.exitCode === null) return { name, url, child }
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200))
  }
  throw new Error(`${name} did not start`)
}

const stopServer = async (server: Server): Promise<void> => {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return
  server.child.kill('SIGTERM')
  await once(server.child, 'exit')
}

/**
 * Whether a server's process has ended (a zombie not yet reaped: the event loop is blocked while wrk
 * runs). Its log goes to /dev/null, so this is all that says why wrk found nothing listening.
 */
const hasEnded = (server: Server): boolean => {
  try {
    return (
      server.child.exitCode !== null || /^\S+ Z /.test(readFileSync(`/proc/${server.child.pid ?? 0}/stat`, 'utf8').split(') ')[1] ?? '')
    )
  } catch {
    return true
  }
}

const stopAll = (servers: ReadonlyArray<Server>): Promise<unknown> => Promise.all(servers.map(stopServer))

/** One request of `scenario`, as wrk sends it; the status and body text of the answer. */
const ask = async (server: Server, scenario: Scenario): Promise<string> => {
  const response = await fetch(`${server.url}${scenario.path}`, {
    method: scenario.method,
    headers: { authorization: `Bearer ${KEY}`, ...(scenario.method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(scenario.method === 'POST' ? { body: POST_BODY } : {}),
  })
  return `${response.status} ${await response.text()}`
}

/**
 * Before any figure: every server in `others` gives `reference`'s statuses and body bytes to the
 * benchmark's requests, so that they all do the same work. Servers must be fresh (a create's
 * answer carries the next id). A difference stops the run: the figures would compare unlike work.
 */
const checkSameAnswers = async (reference: Server, others: ReadonlyArray<Server>, scenarios: ReadonlyArray<Scenario>): Promise<void> => {
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
  console.log(
    `(Checked first: ${others.map((other) => other.name).join(', ')} give${others.length === 1 ? 's' : ''} the ${reference.name}'s ` +
      `statuses and body bytes for ${scenarios.map((scenario) => scenario.name).join(', ')}.)`,
  )
}

const toMs = (value: string, unit: string): number => Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1)

/** CPU time of a process so far, in ms, from /proc (user + system, in clock ticks of 10 ms). */
const cpuMs = (server: Server): number => {
  const fields =
    readFileSync(`/proc/${server.child.pid ?? 0}/stat`, 'utf8')
      .split(') ')[1]
      ?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** json-server is asked the same things in its own query language. */
const pathFor = (server: Server, scenario: Scenario): string => (isJsonServer(server) ? scenario.jsonServerPath : scenario.path)

/** Busy CPU time of the whole machine so far, in ms: every state but idle and iowait, from /proc/stat. */
const machineBusyMs = (): number => {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .split(/\s+/)
    .slice(1)
    .map(Number)
  // steal: the hypervisor running another guest on our cores.
  return (user + nice + system + irq + softirq + steal) * 10
}

/** CPU time of this process and of its children already waited for (each wrk run), in ms. */
const ownMs = (): number => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10
}

/**
 * CPU time so far of everything on the machine but the benchmark: this process, its wrk runs and
 * `servers`. The two cores may share a physical core, so work on either slows the server measured.
 */
const otherMs = (servers: ReadonlyArray<Server>): number =>
  machineBusyMs() - ownMs() - servers.reduce((sum, server) => sum + cpuMs(server), 0)

/** Sleeps without giving the event loop a turn: the measuring code is synchronous. */
const sleepMs = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** A moment is quiet when other programs used less than this share of one core for a second. */
const QUIET_SHARE = 0.1
/** How long a run waits for a quiet moment before it starts all the same. */
const QUIET_WAIT_MS = QUICK ? 10_000 : 60_000

/**
 * What the runs of the current part met: per wrk run, the share of one core other programs used
 * while it ran; the time spent waiting for quiet moments; the runs that started without one. Printed
 * after each part, so that a reader can tell a quiet run from a disturbed one.
 */
let noise = { otherShares: [] as number[], waitedMs: 0, unquiet: 0 }

/**
 * Before a wrk run, waits (up to QUIET_WAIT_MS) for a second in which other programs hardly ran:
 * on a shared machine, a run taken while a build or a test suite runs is not comparable with one
 * taken in a quiet moment, and alternating rounds only even out disturbances that come and go fast.
 */
const waitForQuiet = (servers: ReadonlyArray<Server>): void => {
  const started = performance.now()
  for (;;) {
    const before = otherMs(servers)
    sleepMs(1000)
    if (otherMs(servers) - before < QUIET_SHARE * 1000) break
    if (performance.now() - started > QUIET_WAIT_MS) {
      noise.unquiet += 1
      break
    }
  }
  noise.waitedMs += performance.now() - started - 1000
}

/** One wrk run against `server`; `group` are the benchmark's servers running beside it (stopped or idle). */
const wrk = (server: Server, scenario: Scenario, group: ReadonlyArray<Server> = [server], path = pathFor(server, scenario)): Measure => {
  waitForQuiet(group)
  const before = cpuMs(server)
  const otherBefore = otherMs(group)
  const started = performance.now()
  const url = server.url
  let output: string
  try {
    output = execFileSync(
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
  } catch (error) {
    if (hasEnded(server)) throw new Error(`${server.name} (pid ${server.child.pid ?? '?'}) ended or was killed during the benchmark`)
    throw error
  }
  const cpu = cpuMs(server) - before
  noise.otherShares.push(Math.max(0, otherMs(group) - otherBefore) / (performance.now() - started))
  if (/Non-2xx/.test(output)) throw new Error(`non-2xx answers in ${scenario.name} on ${url}:\n${output}`)
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? '0')
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? '0')
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(output)
  return { rps, p99Ms: p99 === null ? NaN : toMs(p99[1] ?? '0', p99[2] ?? 'ms'), cpuUs: (cpu * 1000) / requests }
}

const pad = (value: number | string, width = 9, digits = 0): string =>
  (typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(digits) : '—') : value).padStart(width)

/** Whether a figure meets its target, as printed beside it: `met` or `NOT met`. */
const verdict = (met: boolean): string => (met ? 'met' : 'NOT met')

/**
 * Measures `server` with every other server of its group stopped (SIGSTOP) and resumed after: idle,
 * they still wake on the servers' core (log flushes, the metrics' event-loop monitor) and would
 * slow whichever server is measured, the fastest most.
 */
const alone = (server: Server, group: ReadonlyArray<Server>, scenario: Scenario): Measure => {
  const others = group.filter((other) => other !== server)
  for (const other of others) other.child.kill('SIGSTOP')
  try {
    return wrk(server, scenario, group)
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

/**
 * The service against the minimal server and the straightforward build, and the service with each
 * feature off, all in the same alternating rounds: every ratio comes from the same moments.
 */
const againstMinimal = async (): Promise<void> => {
  const servers = [
    await startServer('minimal', RAW),
    await startServer('service', SERVICE),
    await startServer('straightforward', STRAIGHTFORWARD),
    ...(await Promise.all(FEATURES.map((feature) => startServer(`no ${feature.name}`, SERVICE, { env: { BENCH_OFF: feature.off } })))),
  ]
  const [minimalServer, serviceServer, straightforwardServer] = servers
  if (minimalServer === undefined || serviceServer === undefined || straightforwardServer === undefined) return
  // Only the service takes an Idempotency-Key.
  const applies = (server: Server, scenario: Scenario): boolean => scenario !== IDEMPOTENT_CREATE || server.name === 'service'
  try {
    await checkSameAnswers(serviceServer, [minimalServer, straightforwardServer], SCENARIOS)
    const results = alternate(servers, [...SCENARIOS.slice(0, 3), IDEMPOTENT_CREATE, CREATE], applies)
    const measureOf = (scenario: Scenario, name: string): Measure | undefined => results.get(scenario.name)?.get(name)

    console.log(
      `\nThe service (every feature at its default) against the minimal server: ${PETS} pets, ${CONNECTIONS} connections, ` +
        `${ROUNDS} alternating rounds of ${SECONDS}s, medians`,
    )
    console.log('endpoint              service rps  minimal rps  service/minimal (target)      by CPU  service CPU µs  minimal CPU µs')
    for (const scenario of SCENARIOS) {
      const service = measureOf(scenario, 'service')
      const minimal = measureOf(scenario, 'minimal')
      const ratio = (service?.rps ?? NaN) / (minimal?.rps ?? NaN)
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service?.rps ?? NaN, 11)}  ${pad(minimal?.rps ?? NaN, 11)}  ` +
          `${pad(ratio, 15, 2)} ${`(>= ${scenario.minimalTarget.toFixed(2)}: ${verdict(ratio >= scenario.minimalTarget)})`.padEnd(20)}` +
          `${pad((minimal?.cpuUs ?? NaN) / (service?.cpuUs ?? NaN), 6, 2)}  ${pad(service?.cpuUs ?? NaN, 14, 1)}  ${pad(minimal?.cpuUs ?? NaN, 14, 1)}`,
      )
    }
    console.log('("by CPU": the same ratio from CPU per request, minimal CPU / service CPU; it does not depend on wrk keeping up.)')

    console.log(`\nLatency at ${CONNECTIONS} connections, the same runs: p99 of the service against the minimal server`)
    console.log('endpoint              service p99 ms  minimal p99 ms  service/minimal (target)')
    for (const scenario of SCENARIOS) {
      const service = measureOf(scenario, 'service')
      const minimal = measureOf(scenario, 'minimal')
      const ratio = (service?.p99Ms ?? NaN) / (minimal?.p99Ms ?? NaN)
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service?.p99Ms ?? NaN, 14, 2)}  ${pad(minimal?.p99Ms ?? NaN, 14, 2)}  ` +
          `${pad(ratio, 15, 2)} (<= ${P99_TARGET}: ${verdict(ratio <= P99_TARGET)})`,
      )
    }
    console.log(
      `(wrk keeps ${CONNECTIONS} requests in flight, so each server is saturated and its latency is mostly queueing, about ` +
        `${CONNECTIONS}/rps: the p99 ratio is near the inverse of the rps ratio unless one server has longer tails.)`,
    )

    console.log(
      `\nThe service against the straightforward build (Koa, @koa/router, @koa/bodyparser, io-ts, fp-ts, pino; no features): the same rounds`,
    )
    console.log(
      'endpoint              service rps  straightforward rps  service/straightforward (target)      by CPU  straightforward CPU µs',
    )
    for (const scenario of SCENARIOS) {
      const service = measureOf(scenario, 'service')
      const straightforward = measureOf(scenario, 'straightforward')
      const ratio = (service?.rps ?? NaN) / (straightforward?.rps ?? NaN)
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service?.rps ?? NaN, 11)}  ${pad(straightforward?.rps ?? NaN, 19)}  ` +
          `${pad(ratio, 23, 2)} ${`(>= ${STRAIGHTFORWARD_TARGET}: ${verdict(ratio >= STRAIGHTFORWARD_TARGET)})`.padEnd(19)}` +
          `${pad((straightforward?.cpuUs ?? NaN) / (service?.cpuUs ?? NaN), 6, 2)}  ${pad(straightforward?.cpuUs ?? NaN, 22, 1)}`,
      )
    }

    console.log(
      '\nWhat each feature with a setting costs: CPU µs per request of the service with every feature on, less with that one off ' +
        '(in brackets: the same from requests per second, 1e6/rps)',
    )
    console.log(`endpoint              defaults µs  ${FEATURES.map((feature) => feature.name.padStart(18)).join('')}`)
    for (const scenario of SCENARIOS) {
      const service = measureOf(scenario, 'service')
      const costs = FEATURES.map((feature) => {
        const off = measureOf(scenario, `no ${feature.name}`)
        if (off === undefined || service === undefined) return pad('—', 18)
        const fromRps = usPerRequest(service.rps) - usPerRequest(off.rps)
        return pad(`${(service.cpuUs - off.cpuUs).toFixed(1)} (${fromRps.toFixed(1)})`, 18)
      })
      console.log(`${scenario.name.padEnd(20)} ${pad(service?.cpuUs ?? NaN, 11, 1)}  ${costs.join('')}`)
    }
    const plain = measureOf(CREATE, 'service')
    const keyed = measureOf(IDEMPOTENT_CREATE, 'service')
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
  const rungs = ['koa', 'router', 'edge', 'auth', 'routes']
  const servers = [
    await startServer('minimal', RAW),
    ...(await Promise.all(rungs.map((rung) => startServer(rung, LADDER, { env: { BENCH_RUNG: rung }, ready: '/v1/pets/1' })))),
    await startServer('service', SERVICE),
  ]
  const labels: Readonly<Record<string, string>> = {
    minimal: 'the minimal server',
    koa: 'Koa alone, answering from a Map',
    router: '+ @koa/router: GET /v1/pets/:petId',
    edge: '+ edge: request id, common headers, error boundary',
    auth: '+ authentication',
    routes: '+ the real routes: use case, ETag, deprecation headers',
    service: '+ log line, metrics, the other routes: the service',
  }
  try {
    const service = servers[servers.length - 1]
    if (service !== undefined) await checkSameAnswers(service, servers.slice(0, -1), [GET])
    const measured = alternate(servers, [GET]).get(GET.name)
    console.log(`\nWhere the time goes: ${GET.name}, built up a layer at a time (CPU µs per request, medians; rps)`)
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
    const results = alternate(servers, SCENARIOS)
    console.log(`\nThe service against json-server 0.17: ${PETS} pets, ${ROUNDS} alternating rounds of ${SECONDS}s (rps, medians)`)
    console.log('endpoint              service rps  json-server rps  service/json-server (target)')
    for (const scenario of SCENARIOS) {
      const service = results.get(scenario.name)?.get('service')?.rps ?? NaN
      const jsonServer = results.get(scenario.name)?.get('json-server')?.rps ?? NaN
      const ratio = service / jsonServer
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service, 11)}  ${pad(jsonServer, 15)}  ${pad(ratio, 18, 1)}x ` +
          `(>= ${JSON_SERVER_TARGET}x: ${verdict(ratio >= JSON_SERVER_TARGET)})`,
      )
    }
  } finally {
    await stopAll(servers)
  }
}

interface HostileBody {
  readonly name: string
  readonly text: string
}

/** About 1 MiB: the three fields of a pet, then 90,000 keys the service ignores. */
const ignoredKeysBody = (): HostileBody => {
  const ignored = Array.from({ length: 90_000 }, (_, index) => `"k${index.toString().padStart(5, '0')}":0`)
  const text = `{"name":"Rex","categoryId":1,${ignored.join(',')}}`
  return { name: `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, 90,000 keys the service ignores`, text }
}

/**
 * Just under the body limit: a pet, then one array holding as many `0,[[[[[[[[]]]]]]]]` as fit,
 * that is hundreds of thousands of empty arrays, ten levels deep at most (well within the
 * service's 64): many small values for the parser and any walk of the parsed body to go through.
 */
const nestedArraysBody = (): HostileBody => {
  const head = '{"name":"x","categoryId":1,"a":['
  const unit = '0,[[[[[[[[]]]]]]]]'
  const units = Math.floor((MAX_BODY_BYTES - 1024 - head.length - 2) / (unit.length + 1))
  const text = `${head}${Array.from({ length: units }, () => unit).join(',')}]}`
  const arrays = units * 8 + 1
  return { name: `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, ${arrays.toLocaleString('en')} nested empty arrays`, text }
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
  waitForQuiet([server])
  const before = cpuMs(server)
  for (let index = 0; index < count; index += 1) {
    const status = await post(server, body, withKey ? newKey() : undefined)
    if (status !== 201) throw new Error(`a create answered ${status}`)
  }
  return (cpuMs(server) - before) / count
}

/**
 * The CPU of one `JSON.parse` of `text` in this process (on the load core, not the servers'), in ms:
 * the median of several, after two to warm up. What a body costs any Node server that parses it.
 */
const parseMs = (text: string): number => {
  waitForQuiet([])
  const times: number[] = []
  for (let run = 0; run < 13; run += 1) {
    const started = process.cpuUsage()
    JSON.parse(text)
    const used = process.cpuUsage(started)
    if (run >= 2) times.push((used.user + used.system) / 1000)
  }
  return median(times)
}

/** Latencies of small GETs sent one after another for `ms`. */
const latencies = async (server: Server, ms: number): Promise<number[]> => {
  waitForQuiet([server])
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

/** Latencies of small GETs while three clients send `hostile` without pause, each with a new Idempotency-Key. */
const latenciesUnderAttack = async (server: Server, hostile: string, ms: number): Promise<number[]> => {
  let running = true
  const attackers = Array.from({ length: 3 }, async () => {
    while (running) await post(server, hostile, newKey())
  })
  const times = await latencies(server, ms)
  running = false
  await Promise.all(attackers)
  return times
}

const percentile = (values: ReadonlyArray<number>, share: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN
}

const latencyText = (times: ReadonlyArray<number>): string =>
  `median ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`

const hostileBodies = async (): Promise<void> => {
  const server = await startServer('service', SERVICE)
  const bodies = [ignoredKeysBody(), nestedArraysBody()]
  const count = QUICK ? 5 : 20
  const ms = QUICK ? 2000 : SECONDS * 1000
  try {
    for (const body of bodies) {
      if (Buffer.byteLength(body.text) >= MAX_BODY_BYTES) throw new Error(`the hostile body ${body.name} is over the body limit`)
    }
    const small = await cpuPerCreate(server, POST_BODY, QUICK ? 200 : 1000, false)
    const alone = await latencies(server, ms)
    console.log(`\nHostile bodies: the service's CPU per create, against one JSON.parse of the same text in this process (median of 11)`)
    console.log(`A small create: ${small.toFixed(2)} ms of CPU (sent one at a time: mostly waking up for each request)`)
    console.log(`A small GET, one at a time, alone: ${latencyText(alone)}`)
    for (const body of bodies) {
      const plain = await cpuPerCreate(server, body.text, count, false)
      const keyed = await cpuPerCreate(server, body.text, count, true)
      const parse = parseMs(body.text)
      const ratio = plain / parse
      const underAttack = await latenciesUnderAttack(server, body.text, ms)
      console.log(`\n${body.name}`)
      console.log(
        `CPU per create: ${plain.toFixed(1)} ms; JSON.parse alone: ${parse.toFixed(1)} ms; create/JSON.parse ${ratio.toFixed(2)}x ` +
          `(<= ${PARSE_TARGET}x: ${verdict(ratio <= PARSE_TARGET)}); with an Idempotency-Key: ${keyed.toFixed(1)} ms`,
      )
      console.log(`A small GET, one at a time, while 3 clients send this body: ${latencyText(underAttack)}`)
    }
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
        const path = scenario === GET ? `/v1/pets/${pets / 2}` : scenario.path
        wrk(server, scenario, [server], path)
        const runs = Array.from({ length: ROUNDS }, () => wrk(server, scenario, [server], path).rps)
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
  console.log(
    `\nResident memory of the service with 1,000,000 pets: ${memory.toFixed(0)} MB (<= ${RSS_TARGET_MB} MB: ${verdict(memory <= RSS_TARGET_MB)})`,
  )
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
  const unknown = chosen.filter((part) => !parts.some(([name]) => name === part))
  if (unknown.length > 0) {
    console.error(`unknown BENCH_PARTS: ${unknown.join(', ')} (parts: ${parts.map(([name]) => name).join(', ')})`)
    process.exit(1)
  }
  const skipped = new Set([...(QUICK ? ['scaling'] : []), ...(process.env.BENCH_JSON_SERVER === 'off' ? ['json-server'] : [])])
  for (const [name, run] of parts) {
    if (!(chosen.length > 0 ? chosen.includes(name) : !skipped.has(name))) continue
    noise = { otherShares: [], waitedMs: 0, unquiet: 0 }
    await run()
    const shares = noise.otherShares
    const during =
      shares.length === 0
        ? ''
        : `other programs used a median ${(100 * median(shares)).toFixed(0)}% (at most ${(100 * Math.max(...shares)).toFixed(0)}%) ` +
          `of one core during its ${shares.length} wrk runs; `
    console.log(
      `(This part: ${during}${(noise.waitedMs / 1000).toFixed(0)} s spent waiting for quiet moments, ` +
        `${noise.unquiet} measure${noise.unquiet === 1 ? '' : 's'} started without one.)`,
    )
  }
}

void main()
