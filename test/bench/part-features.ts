import { type Medians, alternate, pairedDifference } from './measure.js'
import { pad, summariseText } from './report.js'
import { CREATE, FEATURES, GET, LIST, PETS, ROUNDS, SECONDS, type Scenario } from './scenarios.js'
import { SERVICE, checkSameAnswers, startServer, stopAll } from './servers.js'

/** A filtered list costs each feature what a list does: the list, the get and the create are enough. */
const ENDPOINTS: ReadonlyArray<Scenario> = [LIST, GET, CREATE]

/**
 * What each default feature costs: the service with every feature on against the service with that
 * one feature off (seeded-service.ts, BENCH_OFF), all in the same alternating rounds. A feature's
 * cost is the median of the differences of their CPU µs per request in each round; its share, that
 * over the service's.
 */
export const featuresPart = async (): Promise<void> => {
  const service = await startServer('service', SERVICE)
  const servers = [
    service,
    ...(await Promise.all(FEATURES.map((feature) => startServer(`no ${feature.name}`, SERVICE, { env: { BENCH_OFF: feature.off } })))),
  ]
  try {
    await checkSameAnswers(service, servers.slice(1), ENDPOINTS)
    const results = alternate(servers, ENDPOINTS)
    const measureOf = (scenario: Scenario, name: string): Medians =>
      results.get(scenario.name)?.get(name) ?? { rps: NaN, p99Ms: NaN, cpuUs: NaN, rounds: [] }
    const costOf = (scenario: Scenario, feature: string): number =>
      pairedDifference(measureOf(scenario, 'service'), measureOf(scenario, `no ${feature}`))
    const cell = (us: number, of: number): string => pad(`${us.toFixed(1)} (${((100 * us) / of).toFixed(0)}%)`, 18)

    console.log(
      `\nWhat each default feature costs: CPU µs per request of the service with every feature on, less with that one off ` +
        `(its share of the service's); ${PETS} pets, ${ROUNDS} alternating rounds of ${SECONDS}s, medians of each round's difference`,
    )
    console.log(`${'feature'.padEnd(22)}${ENDPOINTS.map((scenario) => scenario.name.padStart(18)).join('')}`)
    for (const feature of FEATURES) {
      const cells = ENDPOINTS.map((scenario) => cell(costOf(scenario, feature.name), measureOf(scenario, 'service').cpuUs))
      console.log(`${feature.name.padEnd(22)}${cells.join('')}`)
    }
    const sums = ENDPOINTS.map((scenario) => FEATURES.reduce((sum, feature) => sum + costOf(scenario, feature.name), 0))
    console.log(
      `${'all of them'.padEnd(22)}${ENDPOINTS.map((scenario, index) => cell(sums[index] ?? NaN, measureOf(scenario, 'service').cpuUs)).join('')}`,
    )
    console.log(`${'the service'.padEnd(22)}${ENDPOINTS.map((scenario) => pad(measureOf(scenario, 'service').cpuUs, 18, 1)).join('')}`)
    console.log('(A difference within a round-to-round spread of a few µs is noise; docs/performance.md has the costs profiled instead.)')
    summariseText(
      `CPU µs per request of the default features, each off in turn, summed (${ENDPOINTS.map((scenario) => scenario.name).join(', ')}; no target)`,
      sums.map((sum) => sum.toFixed(1)).join(', '),
    )
  } finally {
    await stopAll(servers)
  }
}
