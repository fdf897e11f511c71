import { type Measure, alternate, usPerRequest } from './measure.js'
import { pad, summarise, verdict } from './report.js'
import { CONNECTIONS, CREATE, IDEMPOTENT_CREATE, PETS, ROUNDS, SCENARIOS, SECONDS, type Scenario, TARGETS } from './scenarios.js'
import { RAW, SERVICE, STRAIGHTFORWARD, type Server, checkSameAnswers, startServer, stopAll } from './servers.js'

/**
 * The features measured by turning each off (seeded-service.ts, BENCH_OFF): only those with an
 * operator setting. ETags and request ids have none; their cost is in the ladder's rungs.
 */
const FEATURES: ReadonlyArray<{ readonly name: string; readonly off: string }> = [
  { name: 'log line', off: 'log' },
  { name: 'metrics', off: 'metrics' },
]

/**
 * The service against the minimal server and the straightforward build, and the service with each
 * feature off, all in the same alternating rounds: every ratio comes from the same moments.
 */
export const servicePart = async (): Promise<void> => {
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
    const measureOf = (scenario: Scenario, name: string): Measure =>
      results.get(scenario.name)?.get(name) ?? { rps: NaN, p99Ms: NaN, cpuUs: NaN }
    const service = (scenario: Scenario): Measure => measureOf(scenario, 'service')
    const minimal = (scenario: Scenario): Measure => measureOf(scenario, 'minimal')
    const straightforward = (scenario: Scenario): Measure => measureOf(scenario, 'straightforward')

    console.log(
      `\nThe service (every feature at its default) against the minimal server: ${PETS} pets, ${CONNECTIONS} connections, ` +
        `${ROUNDS} alternating rounds of ${SECONDS}s, medians`,
    )
    console.log('endpoint              service rps  minimal rps  service/minimal (target)      by CPU  service CPU µs  minimal CPU µs')
    for (const scenario of SCENARIOS) {
      const ratio = service(scenario).rps / minimal(scenario).rps
      const byCpu = minimal(scenario).cpuUs / service(scenario).cpuUs
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service(scenario).rps, 11)}  ${pad(minimal(scenario).rps, 11)}  ` +
          `${pad(ratio, 15, 2)} ${`(>= ${TARGETS.minimal.toFixed(2)}: ${verdict(ratio >= TARGETS.minimal)})`.padEnd(20)}` +
          `${pad(byCpu, 6, 2)}  ${pad(service(scenario).cpuUs, 14, 1)}  ${pad(minimal(scenario).cpuUs, 14, 1)}`,
      )
    }
    console.log('("by CPU": the same ratio from CPU per request, minimal CPU / service CPU; it does not depend on wrk keeping up.)')
    const atLeastMinimal = (figure: number): boolean => figure >= TARGETS.minimal
    summarise(
      `rps share of the minimal server >= ${TARGETS.minimal.toFixed(2)}`,
      SCENARIOS.map((scenario) => service(scenario).rps / minimal(scenario).rps),
      atLeastMinimal,
    )
    summarise(
      `CPU share of the minimal server >= ${TARGETS.minimal.toFixed(2)}`,
      SCENARIOS.map((scenario) => minimal(scenario).cpuUs / service(scenario).cpuUs),
      atLeastMinimal,
    )

    console.log(`\nLatency at ${CONNECTIONS} connections, the same runs: p99 of the service against the minimal server`)
    console.log('endpoint              service p99 ms  minimal p99 ms  service/minimal (target)')
    for (const scenario of SCENARIOS) {
      const ratio = service(scenario).p99Ms / minimal(scenario).p99Ms
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service(scenario).p99Ms, 14, 2)}  ${pad(minimal(scenario).p99Ms, 14, 2)}  ` +
          `${pad(ratio, 15, 2)} (<= ${TARGETS.p99}: ${verdict(ratio <= TARGETS.p99)})`,
      )
    }
    console.log(
      `(wrk keeps ${CONNECTIONS} requests in flight, so each server is saturated and its latency is mostly queueing, about ` +
        `${CONNECTIONS}/rps: the p99 ratio is near the inverse of the rps ratio unless one server has longer tails.)`,
    )
    summarise(
      `p99 at ${CONNECTIONS} connections over the minimal server's <= ${TARGETS.p99}`,
      SCENARIOS.map((scenario) => service(scenario).p99Ms / minimal(scenario).p99Ms),
      (figure) => figure <= TARGETS.p99,
    )

    console.log(
      `\nCPU per request: the service against the straightforward build (Koa, @koa/router, @koa/bodyparser, io-ts, fp-ts, pino; ` +
        `no features), the same rounds`,
    )
    console.log('endpoint              service CPU µs  straightforward CPU µs  straightforward/service (target)    by rps')
    for (const scenario of SCENARIOS) {
      const ratio = straightforward(scenario).cpuUs / service(scenario).cpuUs
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service(scenario).cpuUs, 14, 1)}  ${pad(straightforward(scenario).cpuUs, 22, 1)}  ` +
          `${pad(ratio, 15, 2)} ${`(>= ${TARGETS.straightforwardCpu.toFixed(1)}: ${verdict(ratio >= TARGETS.straightforwardCpu)})`.padEnd(17)}` +
          `${pad(service(scenario).rps / straightforward(scenario).rps, 8, 2)}`,
      )
    }
    summarise(
      `CPU per request, straightforward build/service >= ${TARGETS.straightforwardCpu.toFixed(1)}`,
      SCENARIOS.map((scenario) => straightforward(scenario).cpuUs / service(scenario).cpuUs),
      (figure) => figure >= TARGETS.straightforwardCpu,
    )

    console.log(
      '\nWhat each feature with a setting costs: CPU µs per request of the service with every feature on, less with that one off ' +
        '(in brackets: the same from requests per second, 1e6/rps)',
    )
    console.log(`endpoint              defaults µs  ${FEATURES.map((feature) => feature.name.padStart(18)).join('')}`)
    for (const scenario of SCENARIOS) {
      const costs = FEATURES.map((feature) => {
        const off = measureOf(scenario, `no ${feature.name}`)
        const fromRps = usPerRequest(service(scenario).rps) - usPerRequest(off.rps)
        return pad(`${(service(scenario).cpuUs - off.cpuUs).toFixed(1)} (${fromRps.toFixed(1)})`, 18)
      })
      console.log(`${scenario.name.padEnd(20)} ${pad(service(scenario).cpuUs, 11, 1)}  ${costs.join('')}`)
    }
    const plain = service(CREATE)
    const keyed = service(IDEMPOTENT_CREATE)
    console.log(
      `An Idempotency-Key create (a new key each time): ${pad(keyed.cpuUs, 0, 1)} µs CPU (${pad(keyed.rps, 0)} rps) ` +
        `against ${pad(plain.cpuUs, 0, 1)} µs (${pad(plain.rps, 0)} rps) without a key: ` +
        `${(keyed.cpuUs - plain.cpuUs).toFixed(1)} µs more per create`,
    )
  } finally {
    await stopAll(servers)
  }
}
