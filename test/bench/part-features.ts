import { alternate, median, pairedDifference } from './measure.js'
import { pad, summariseText } from './report.js'
import { CREATE, FEATURES, GET, LIST, PETS, ROUNDS, SECONDS, type Scenario } from './scenarios.js'
import { SERVICE, checkSameAnswers, startServer, stopAll } from './servers.js'

/** A filtered list costs each feature what a list does: the list, the get and the create are enough. */
const ENDPOINTS: ReadonlyArray<Scenario> = [LIST, GET, CREATE]

/** Copies of the service with every feature on: one process can run several µs faster or slower than another, for its whole life. */
const COPIES = 3

/**
 * What each default feature costs: the service with every feature on, in COPIES processes, against
 * the service with one feature off (seeded-service.ts, BENCH_OFF), all in the same alternating
 * rounds. A feature's cost is the median, over the rounds, of what the copies took in the round
 * (their median) less what the service without the feature took, in CPU µs per request; its share,
 * that over the service's. How far apart the copies are is the noise below which a cost says nothing.
 */
export const featuresPart = async (): Promise<void> => {
  const copies = await Promise.all(
    Array.from({ length: COPIES }, (_, index) => startServer(index === 0 ? 'service' : `service, copy ${index + 1}`, SERVICE)),
  )
  const withoutFeatures = await Promise.all(
    FEATURES.map((feature) => startServer(`no ${feature.name}`, SERVICE, { env: { BENCH_OFF: feature.off } })),
  )
  const servers = [...copies, ...withoutFeatures]
  try {
    const [reference] = copies
    if (reference !== undefined) await checkSameAnswers(reference, servers.slice(1), ENDPOINTS)
    const results = alternate(servers, ENDPOINTS)
    const roundsOf = (scenario: Scenario, name: string): ReadonlyArray<number> =>
      results
        .get(scenario.name)
        ?.get(name)
        ?.rounds.map((measure) => measure.cpuUs) ?? []
    /** What the copies took in each round: their median. */
    const serviceRounds = (scenario: Scenario): ReadonlyArray<number> =>
      Array.from({ length: ROUNDS }, (_, round) => median(copies.map((copy) => roundsOf(scenario, copy.name)[round] ?? NaN)))
    const serviceUs = (scenario: Scenario): number => median(serviceRounds(scenario))
    const costOf = (scenario: Scenario, feature: string): number =>
      pairedDifference(serviceRounds(scenario), roundsOf(scenario, `no ${feature}`))
    const cell = (us: number, of: number): string => pad(`${us.toFixed(1)} (${((100 * us) / of).toFixed(0)}%)`, 18)

    console.log(
      `\nWhat each default feature costs: CPU µs per request of the service with every feature on (${COPIES} copies), less with ` +
        `that one off (its share of the service's); ${PETS} pets, ${ROUNDS} alternating rounds of ${SECONDS}s, medians of each ` +
        `round's difference`,
    )
    console.log(`${'feature'.padEnd(22)}${ENDPOINTS.map((scenario) => scenario.name.padStart(18)).join('')}`)
    for (const feature of FEATURES) {
      const cells = ENDPOINTS.map((scenario) => cell(costOf(scenario, feature.name), serviceUs(scenario)))
      console.log(`${feature.name.padEnd(22)}${cells.join('')}`)
    }
    const sums = ENDPOINTS.map((scenario) => FEATURES.reduce((sum, feature) => sum + costOf(scenario, feature.name), 0))
    console.log(`${'all of them'.padEnd(22)}${ENDPOINTS.map((scenario, index) => cell(sums[index] ?? NaN, serviceUs(scenario))).join('')}`)
    console.log(`${'the service'.padEnd(22)}${ENDPOINTS.map((scenario) => pad(serviceUs(scenario), 18, 1)).join('')}`)
    const spread = (scenario: Scenario): string => copies.map((copy) => median(roundsOf(scenario, copy.name)).toFixed(1)).join(' / ')
    console.log(`${'its copies, each'.padEnd(22)}${ENDPOINTS.map((scenario) => spread(scenario).padStart(18)).join('')}`)
    console.log('(A cost within the spread of the copies is noise.)')
    summariseText(
      `CPU µs per request of the default features, each off in turn, summed (${ENDPOINTS.map((scenario) => scenario.name).join(', ')}; no target)`,
      sums.map((sum) => sum.toFixed(1)).join(', '),
    )
  } finally {
    await stopAll(servers)
  }
}
