import { FIXED_RATE_SECONDS, type Measure, aloneIn, alternate, fixedRate, measureOf, median } from './measure.js'
import type { FixedRateResult } from './fixed-rate-load.js'
import { pad, summarise, summariseText, verdict } from './report.js'
import { CONNECTIONS, CREATE, IDEMPOTENT_CREATE, PETS, ROUNDS, SCENARIOS, SECONDS, type Scenario, TARGETS } from './scenarios.js'
import { RAW, SERVICE, STRAIGHTFORWARD, type Server, checkSameAnswers, startProcesses, stopAll } from './servers.js'

/**
 * The service against the straightforward build, the same build with the service's features written
 * the plainest way (BENCH_FEATURES=on) and the minimal server, all in the same alternating rounds,
 * so that every ratio comes from the same moments; then the p99 of the service and of the minimal
 * server at a fixed rate, half the service's own maximum, again in alternating rounds.
 */
export const servicePart = async (): Promise<void> => {
  const servers: Server[] = []
  try {
    // One process of each build per round: the medians are over processes as well as moments.
    const minimals = await startProcesses('minimal', RAW)
    servers.push(...minimals)
    const services = await startProcesses('service', SERVICE)
    servers.push(...services)
    servers.push(...(await startProcesses('straightforward', STRAIGHTFORWARD)))
    servers.push(...(await startProcesses('featured', STRAIGHTFORWARD, { env: { BENCH_FEATURES: 'on' } })))
    const [serviceServer] = services
    if (serviceServer === undefined) return
    await checkSameAnswers(serviceServer, servers, SCENARIOS)
    const results = alternate(servers, SCENARIOS)
    const service = (scenario: Scenario): Measure => measureOf(results, scenario, 'service')
    const minimal = (scenario: Scenario): Measure => measureOf(results, scenario, 'minimal')
    const straightforward = (scenario: Scenario): Measure => measureOf(results, scenario, 'straightforward')
    const featured = (scenario: Scenario): Measure => measureOf(results, scenario, 'featured')

    console.log(
      `\nThe service (every feature at its default) against the straightforward build (Koa, @koa/router, @koa/bodyparser, io-ts, ` +
        `fp-ts, pino; no features): ${PETS} pets, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS}s, medians`,
    )
    console.log('endpoint              service CPU µs  straightforward CPU µs  requests per CPU-second, service/straightforward    by rps')
    const byCpu = SCENARIOS.map((scenario) => straightforward(scenario).cpuUs / service(scenario).cpuUs)
    SCENARIOS.forEach((scenario, index) => {
      const ratio = byCpu[index] ?? NaN
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service(scenario).cpuUs, 14, 1)}  ${pad(straightforward(scenario).cpuUs, 22, 1)}  ` +
          `${pad(ratio, 15, 2)} ${`(>= ${TARGETS.straightforwardCpu}: ${verdict(ratio >= TARGETS.straightforwardCpu)})`.padEnd(33)}` +
          `${pad(service(scenario).rps / straightforward(scenario).rps, 8, 2)}`,
      )
    })
    summarise(
      `requests per CPU-second, the service over the straightforward build >= ${TARGETS.straightforwardCpu}`,
      byCpu,
      (figure) => figure >= TARGETS.straightforwardCpu,
    )

    console.log(
      `\nThe same rounds: the features at their least, the straightforward build with the service's default features ` +
        `written the plainest way (BENCH_FEATURES=on), over the straightforward build without them (no target: ` +
        `about the most any build of these features on this stack can reach of the one above)`,
    )
    console.log('endpoint              featured CPU µs  requests per CPU-second, featured/straightforward')
    const leastByCpu = SCENARIOS.map((scenario) => straightforward(scenario).cpuUs / featured(scenario).cpuUs)
    SCENARIOS.forEach((scenario, index) => {
      console.log(`${scenario.name.padEnd(20)} ${pad(featured(scenario).cpuUs, 15, 1)}  ${pad(leastByCpu[index] ?? NaN, 15, 2)}`)
    })
    summariseText(
      'the features at their least: the straightforward build with them over it, by CPU (no target)',
      leastByCpu.map((figure) => figure.toFixed(2)).join(', '),
    )

    console.log(`\nThe same rounds: the service against the minimal server (no target)`)
    console.log('endpoint              service rps  minimal rps  service/minimal  by CPU  minimal CPU µs  service p99 ms  minimal p99 ms')
    for (const scenario of SCENARIOS) {
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service(scenario).rps, 11)}  ${pad(minimal(scenario).rps, 11)}  ` +
          `${pad(service(scenario).rps / minimal(scenario).rps, 15, 2)}  ${pad(minimal(scenario).cpuUs / service(scenario).cpuUs, 6, 2)}  ` +
          `${pad(minimal(scenario).cpuUs, 14, 1)}  ${pad(service(scenario).p99Ms, 14, 2)}  ${pad(minimal(scenario).p99Ms, 14, 2)}`,
      )
    }
    console.log(
      `("by CPU": minimal CPU / service CPU. At ${CONNECTIONS} connections each server is saturated and its latency is mostly ` +
        `queueing, about ${CONNECTIONS}/rps: the fixed-rate p99 below is the one with a target.)`,
    )
    summariseText(
      'the service over the minimal server, by CPU (no target)',
      SCENARIOS.map((scenario) => (minimal(scenario).cpuUs / service(scenario).cpuUs).toFixed(2)).join(', '),
    )

    // Below saturation: each server gets the same requests at the same fixed rate.
    const rates = new Map(SCENARIOS.map((scenario) => [scenario, Math.round(service(scenario).rps / 2)]))
    const rounds = new Map(SCENARIOS.map((scenario) => [scenario, { service: [] as FixedRateResult[], minimal: [] as FixedRateResult[] }]))
    // Round by round, each round's processes through every endpoint, so that each is resumed once:
    // V8's memory reducer runs a full collection once none has run for 100 s of wall time, which a long stop passes.
    for (let round = 0; round < ROUNDS; round += 1) {
      const [ofService, ofMinimal] = [services[round % services.length], minimals[round % minimals.length]]
      if (ofService === undefined || ofMinimal === undefined) continue
      for (const scenario of SCENARIOS) {
        const rate = rates.get(scenario) ?? NaN
        rounds.get(scenario)?.service.push(aloneIn(ofService, servers, () => fixedRate(ofService, scenario, rate, servers)))
        rounds.get(scenario)?.minimal.push(aloneIn(ofMinimal, servers, () => fixedRate(ofMinimal, scenario, rate, servers)))
      }
    }
    const p99sOf = (results: ReadonlyArray<FixedRateResult>): number[] => results.map((result) => result.p99Ms)
    const p99s = new Map(
      SCENARIOS.map((scenario) => {
        const { service: ofService = [], minimal: ofMinimal = [] } = rounds.get(scenario) ?? {}
        return [scenario, { service: median(p99sOf(ofService)), minimal: median(p99sOf(ofMinimal)), rounds: ofService }]
      }),
    )
    console.log(
      `\nLatency below saturation: p99 at a fixed rate of half the service's maximum above (fixed-rate-load.ts, ${CONNECTIONS} ` +
        `keep-alive connections, latency from when each request was due), ${ROUNDS} alternating rounds of ${FIXED_RATE_SECONDS}s, medians`,
    )
    console.log(
      'endpoint              rate (rps)  service p99 ms  minimal p99 ms  service/minimal (target)       service p99 (p99.9) ms of each round',
    )
    const p99Ratios = SCENARIOS.map((scenario) => {
      const { service: ofService = NaN, minimal: ofMinimal = NaN, rounds: serviceRounds = [] } = p99s.get(scenario) ?? {}
      const ratio = ofService / ofMinimal
      console.log(
        `${scenario.name.padEnd(20)} ${pad(rates.get(scenario) ?? NaN, 10)}  ${pad(ofService, 14, 2)}  ${pad(ofMinimal, 14, 2)}  ` +
          `${pad(ratio, 15, 2)} ${`(<= ${TARGETS.fixedRateP99}: ${verdict(ratio <= TARGETS.fixedRateP99)})`.padEnd(14)} ` +
          `${serviceRounds.map((round) => `${round.p99Ms.toFixed(2)} (${round.p999Ms.toFixed(1)})`).join(', ')}`,
      )
      return ratio
    })
    summarise(
      `p99 at half the service's maximum rate over the minimal server's <= ${TARGETS.fixedRateP99}`,
      p99Ratios,
      (figure) => figure <= TARGETS.fixedRateP99,
    )

    // Last, on the service alone: the records its keys leave (kept a day) would be marked by every full collection of
    // the rounds above, which the other builds, sent no key, never pay.
    const ofKeys = alternate(services, [IDEMPOTENT_CREATE, CREATE])
    const plain = measureOf(ofKeys, CREATE, 'service')
    const keyed = measureOf(ofKeys, IDEMPOTENT_CREATE, 'service')
    console.log(
      `\nAn Idempotency-Key create (a new key each time): ${pad(keyed.cpuUs, 0, 1)} µs CPU (${pad(keyed.rps, 0)} rps) ` +
        `against ${pad(plain.cpuUs, 0, 1)} µs (${pad(plain.rps, 0)} rps) without a key: ` +
        `${(keyed.cpuUs - plain.cpuUs).toFixed(1)} µs more per create`,
    )
  } finally {
    await stopAll(servers)
  }
}
