import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SwitchReport } from './feature-switch.js'
import { wrk } from './measure.js'
import { pad, summariseText } from './report.js'
import {
  CREATE,
  FEATURES,
  GET,
  LIST,
  PETS,
  RESETTING_CREATE,
  ROUNDS,
  SECONDS,
  type Scenario,
  TEST_TARGET_FEATURES,
  work,
} from './scenarios.js'
import { SERVICE, type Server, startServer, stopServer } from './servers.js'

type Feature = (typeof FEATURES)[number]

/** A filtered list costs each feature what a list does: the list, the get and the create are enough. */
const ENDPOINTS: ReadonlyArray<Scenario> = [LIST, GET, CREATE]
/** In test-target mode, creates reset their sandbox now and then, as the test-target part's do. */
const TEST_TARGET_ENDPOINTS: ReadonlyArray<Scenario> = [LIST, GET, RESETTING_CREATE]

/** A constant read once as the routes load: it can be turned off for a process (BENCH_OFF), not switched. */
const NOT_SWITCHABLE = new Set(['deprecation'])

/** How long each endpoint loads a switching service before its counts start. */
const WARM_UP_SECONDS = 2

/** Asks the switching service for its counts (SIGUSR2), which it then starts afresh, and waits for them. */
const countsOf = async (server: Server, file: string): Promise<SwitchReport> => {
  const last = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SwitchReport).sequence : 0
  server.child.kill('SIGUSR2')
  for (let waited = 0; waited < 5_000; waited += 20) {
    await new Promise((done) => setTimeout(done, 20))
    const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SwitchReport) : undefined
    if (report !== undefined && report.sequence > last) return report
  }
  throw new Error(`${server.name} wrote no counts to ${file}`)
}

/** CPU µs per request of a state, and how many requests it had. */
const perRequest = ({ cpuUs, requests }: SwitchReport['on']): number => cpuUs / requests

/**
 * What each of `features` costs: one process of the service per feature, that feature switching on
 * and off every 200 ms (seeded-service.ts, BENCH_SWITCH, feature-switch.ts) while wrk loads one
 * endpoint for ROUNDS × SECONDS; the process counts its own CPU time and requests in each state. A
 * feature's cost is the CPU per request with it on less with it off, in the same process and the
 * same seconds: two processes of one build differ by more than most features cost, for their life.
 * Prints a row per feature and answers the sums per endpoint.
 */
const switchedCosts = async (
  features: ReadonlyArray<Feature>,
  endpoints: ReadonlyArray<Scenario>,
  env: Readonly<Record<string, string>>,
): Promise<number[]> => {
  console.log(`${'feature'.padEnd(22)}${endpoints.map((scenario) => scenario.name.padStart(20)).join('')}`)
  const sums = endpoints.map(() => 0)
  const services = endpoints.map((): number[] => [])
  for (const feature of features) {
    if (NOT_SWITCHABLE.has(feature.off)) {
      console.log(`${feature.name.padEnd(22)}not measured: a constant, read once as the routes load, cannot be switched`)
      continue
    }
    const file = join(work, `switch-${feature.off}.json`)
    const server = await startServer(`${feature.name}, switching`, SERVICE, {
      env: { ...env, BENCH_SWITCH: feature.off, BENCH_SWITCH_REPORT: file },
    })
    try {
      const cells: string[] = []
      for (const [index, scenario] of endpoints.entries()) {
        wrk(server, scenario, { seconds: WARM_UP_SECONDS })
        await countsOf(server, file)
        wrk(server, scenario, { seconds: ROUNDS * SECONDS })
        const counts = await countsOf(server, file)
        const withIt = perRequest(counts.on)
        const cost = withIt - perRequest(counts.off)
        sums[index] = (sums[index] ?? 0) + cost
        services[index]?.push(withIt)
        cells.push(pad(`${cost.toFixed(1)} (${((100 * cost) / withIt).toFixed(0)}%)`, 20))
      }
      console.log(`${feature.name.padEnd(22)}${cells.join('')}`)
    } finally {
      await stopServer(server)
    }
  }
  console.log(`${'all of them'.padEnd(22)}${sums.map((sum) => pad(sum, 20, 1)).join('')}`)
  const range = (values: ReadonlyArray<number>): string => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`
  console.log(`${'the service, each'.padEnd(22)}${services.map((values) => range(values).padStart(20)).join('')}`)
  console.log('(The last line: the CPU µs per request of the processes above with their feature on; they differ by more than most costs.)')
  return sums
}

/** What each default feature costs, then each part of test-target mode, in that mode (switchedCosts). */
export const featuresPart = async (): Promise<void> => {
  const scope = `${PETS} pets, ${ROUNDS * SECONDS} s per endpoint after ${WARM_UP_SECONDS} s of warm-up`
  console.log(
    `\nWhat each default feature costs: CPU µs per request with it on less with it off, switched every 200 ms in one process ` +
      `(its share of the service's with it on); ${scope}`,
  )
  const sums = await switchedCosts(FEATURES, ENDPOINTS, {})
  summariseText(
    `CPU µs per request of the default features, each switched in one process, summed (${ENDPOINTS.map((scenario) => scenario.name).join(', ')}; no target)`,
    sums.map((sum) => sum.toFixed(1)).join(', '),
  )
  console.log(`\nWhat each part of test-target mode costs, in that mode, measured the same way; ${scope}`)
  const testTargetSums = await switchedCosts(TEST_TARGET_FEATURES, TEST_TARGET_ENDPOINTS, { BENCH_MODE: 'test-target' })
  summariseText(
    `CPU µs per request of test-target mode's parts, each switched in one process, summed (${TEST_TARGET_ENDPOINTS.map((scenario) => scenario.name).join(', ')}; no target)`,
    testTargetSums.map((sum) => sum.toFixed(1)).join(', '),
  )
}
