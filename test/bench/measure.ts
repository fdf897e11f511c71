import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { resolve } from 'node:path'
import type { FixedRateLoad, FixedRateResult } from './fixed-rate-load.js'
import { CONNECTIONS, KEY, POST_BODY, QUICK, ROUNDS, SECONDS, type Scenario } from './scenarios.js'
import { type Server, cpuMs, hasEnded, ownMs, pathFor } from './servers.js'

/** wrk runs, on the load core, and the figures taken from them: each server alone, in alternating rounds. */
export const LOAD_CORE = cpus().length > 1 ? '1' : '0'

export interface Measure {
  readonly rps: number
  readonly p99Ms: number
  /** CPU time of the server (user and system) per request answered, in µs. */
  readonly cpuUs: number
}

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const toMs = (value: string, unit: string): number => Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : 1)

/** Busy CPU time of the whole machine so far, in ms: every state but idle and iowait, from /proc/stat. */
const machineBusyMs = (): number => {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .split(/\s+/)
    .slice(1)
    .map(Number)
  // steal: the hypervisor running another guest on our cores.
  return (user + nice + system + irq + softirq + steal) * 10
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
export const noise = { otherShares: [] as number[], waitedMs: 0, unquiet: 0 }

export const resetNoise = (): void => {
  noise.otherShares = []
  noise.waitedMs = 0
  noise.unquiet = 0
}

/**
 * Before a wrk run, waits (up to QUIET_WAIT_MS) for a second in which other programs hardly ran:
 * on a shared machine, a run taken while a build or a test suite runs is not comparable with one
 * taken in a quiet moment, and alternating rounds only even out disturbances that come and go fast.
 */
export const waitForQuiet = (servers: ReadonlyArray<Server>): void => {
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

/** Runs wrk on the load core with `args`; a failure blamed on the server when it has ended. */
export const runWrk = (server: Server, args: ReadonlyArray<string>): string => {
  try {
    return execFileSync('taskset', ['-c', LOAD_CORE, 'wrk', '-t1', '-H', `Authorization: Bearer ${KEY}`, ...args], { encoding: 'utf8' })
  } catch (error) {
    if (hasEnded(server)) throw new Error(`${server.name} (pid ${server.child.pid ?? '?'}) ended or was killed during the benchmark`)
    throw error
  }
}

/** Requests wrk sent and had answered, from its output. */
export const requestsOf = (output: string): number => Number(/(\d+) requests in/.exec(output)?.[1] ?? '0')

/**
 * How long a server resumed from a stop (aloneIn) is loaded before its measured seconds, not counted.
 * V8's memory reducer shrinks the heap with a full collection once none has run for 100 s of wall
 * time, a stop's included: a process resumed after a long stop runs it as the load begins, and the
 * collections that follow while the heap grows back would fall in the measured seconds, the more
 * often the longer the stops (the more builds in a round).
 */
const RESUMED_WARM_UP_SECONDS = 2

/**
 * One wrk run of `seconds` against `server`, after `warmUpSeconds` of the same load (none unless
 * given); `group` are the benchmark's servers running beside it (stopped or idle).
 */
export const wrk = (
  server: Server,
  scenario: Scenario,
  options: {
    readonly group?: ReadonlyArray<Server>
    readonly path?: string
    readonly seconds?: number
    readonly warmUpSeconds?: number
  } = {},
): Measure => {
  const group = options.group ?? [server]
  const load = (seconds: number): ReadonlyArray<string> => [
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    '--latency',
    ...(scenario.script === undefined ? [] : ['-s', scenario.script]),
    `${server.url}${options.path ?? pathFor(server, scenario)}`,
  ]
  waitForQuiet(group)
  if (options.warmUpSeconds !== undefined) runWrk(server, load(options.warmUpSeconds))
  const before = cpuMs(server)
  const otherBefore = otherMs(group)
  const started = performance.now()
  const output = runWrk(server, load(options.seconds ?? SECONDS))
  const cpu = cpuMs(server) - before
  noise.otherShares.push(Math.max(0, otherMs(group) - otherBefore) / (performance.now() - started))
  if (/Non-2xx/.test(output)) throw new Error(`non-2xx answers in ${scenario.name} on ${server.url}:\n${output}`)
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? '0')
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(output)
  return { rps, p99Ms: p99 === null ? NaN : toMs(p99[1] ?? '0', p99[2] ?? 'ms'), cpuUs: (cpu * 1000) / requestsOf(output) }
}

/**
 * Runs `measure` with every other server of `group` stopped (SIGSTOP) and resumed after: idle, they
 * still wake on the servers' core (log flushes, the metrics' event-loop monitor, a JVM's threads)
 * and would slow whichever server is measured, the fastest most.
 */
export const aloneIn = <T>(server: Server, group: ReadonlyArray<Server>, measure: () => T): T => {
  const others = group.filter((other) => other !== server)
  for (const other of others) other.child.kill('SIGSTOP')
  try {
    return measure()
  } finally {
    for (const other of others) other.child.kill('SIGCONT')
  }
}

/** One wrk run of `scenario` against `server`, the other servers of its group stopped, after RESUMED_WARM_UP_SECONDS. */
export const alone = (server: Server, group: ReadonlyArray<Server>, scenario: Scenario, seconds?: number): Measure =>
  aloneIn(server, group, () =>
    wrk(server, scenario, { group, warmUpSeconds: RESUMED_WARM_UP_SECONDS, ...(seconds === undefined ? {} : { seconds }) }),
  )

const FIXED_RATE_LOAD = resolve(__dirname, 'fixed-rate-load.js')

/**
 * Sent at the rate before a fixed-rate run's measured seconds, and not counted: long enough for V8
 * to optimize the path, without which requests queue behind unoptimized code, and for the full
 * collections of a process resumed after a long stop (RESUMED_WARM_UP_SECONDS) to pass: the memory
 * reducer's, then the next as the shrunk heap grows back (docs/performance.md has the figures).
 */
const FIXED_RATE_WARM_UP_SECONDS = 10

/**
 * A fixed-rate run's measured seconds: long enough that the requests one full collection delays
 * are fewer than one in a hundred of the run, so that its p99 is the steady state's rather than
 * whether a collection fell in it; its p99.9 shows them (docs/performance.md has the figures).
 */
export const FIXED_RATE_SECONDS = QUICK ? SECONDS : 4 * SECONDS

/**
 * One run of FIXED_RATE_SECONDS of `scenario` at `rate` requests a second against `server`, from
 * fixed-rate-load.ts on the load core, over CONNECTIONS connections; `group` as for wrk.
 */
export const fixedRate = (server: Server, scenario: Scenario, rate: number, group: ReadonlyArray<Server> = [server]): FixedRateResult => {
  waitForQuiet(group)
  const otherBefore = otherMs(group)
  const started = performance.now()
  const post = scenario.method === 'POST'
  const load: FixedRateLoad = {
    url: `${server.url}${scenario.path}`,
    method: scenario.method,
    headers: { authorization: `Bearer ${KEY}`, ...(post ? { 'content-type': 'application/json' } : {}) },
    ...(post ? { body: POST_BODY } : {}),
    rate,
    seconds: FIXED_RATE_SECONDS,
    warmUpSeconds: FIXED_RATE_WARM_UP_SECONDS,
    connections: CONNECTIONS,
  }
  let output: string
  try {
    output = execFileSync('taskset', ['-c', LOAD_CORE, process.execPath, FIXED_RATE_LOAD, JSON.stringify(load)], { encoding: 'utf8' })
  } catch (error) {
    if (hasEnded(server)) throw new Error(`${server.name} (pid ${server.child.pid ?? '?'}) ended or was killed during the benchmark`)
    throw error
  }
  noise.otherShares.push(Math.max(0, otherMs(group) - otherBefore) / (performance.now() - started))
  const result = JSON.parse(output) as FixedRateResult
  if (result.failed > 0) throw new Error(`${result.failed} failed or non-2xx answers in ${scenario.name} at a fixed rate on ${server.url}`)
  return result
}

/** A server's medians over its rounds, and the measure of each round. */
export interface Medians extends Measure {
  readonly rounds: ReadonlyArray<Measure>
}

/** Per scenario name, per server name, the medians of its rounds. */
export type Results = Map<string, Map<string, Medians>>

/** The medians of build `name` on `scenario` in `results`; NaN where it was not measured. */
export const measureOf = (results: Results, scenario: Scenario, name: string): Measure =>
  results.get(scenario.name)?.get(name) ?? { rps: NaN, p99Ms: NaN, cpuUs: NaN }

/**
 * Per scenario, ROUNDS rounds in which every build is measured once, in turn, alone; the median of
 * each. Servers of the same name are processes of one build: round r measures the r-th of them (in
 * turn when there are fewer), so that a build's median is taken over its processes, which differ
 * from each other for their whole life (docs/performance.md). Every other round goes through the
 * builds in the opposite order, so that no build is always the one measured first, or just after
 * another. Every scenario runs once on every process first, so that the JIT has settled.
 */
export const alternate = (
  servers: ReadonlyArray<Server>,
  scenarios: ReadonlyArray<Scenario>,
  /** How `server` is sent `scenario`, when not as for the others (its results are still the scenario's). */
  variant: (server: Server, scenario: Scenario) => Scenario = (_server, scenario) => scenario,
): Results => {
  for (const server of servers) for (const scenario of scenarios) alone(server, servers, variant(server, scenario))
  const builds = [...new Set(servers.map((server) => server.name))].map((name) => servers.filter((server) => server.name === name))
  const results: Results = new Map()
  for (const scenario of scenarios) {
    const runs = new Map<string, Measure[]>()
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const processes of round % 2 === 0 ? builds : [...builds].reverse()) {
        const server = processes[round % processes.length]
        if (server === undefined) continue
        const measures = runs.get(server.name) ?? []
        measures.push(alone(server, servers, variant(server, scenario)))
        runs.set(server.name, measures)
      }
    }
    const medians = [...runs].map(([name, measures]): [string, Medians] => [
      name,
      {
        rps: median(measures.map((measure) => measure.rps)),
        p99Ms: median(measures.map((measure) => measure.p99Ms)),
        cpuUs: median(measures.map((measure) => measure.cpuUs)),
        rounds: measures,
      },
    ])
    results.set(scenario.name, new Map(medians))
  }
  return results
}
