import { type Measure, alone, alternate, measureOf } from './measure.js'
import { pad, summarise, summariseText, verdict } from './report.js'
import { CONNECTIONS, CREATE, GET, LIST, QUICK, RESETTING_CREATE, ROUNDS, SECONDS, type Scenario, TARGETS } from './scenarios.js'
import {
  SERVICE,
  STRAIGHTFORWARD,
  type Server,
  checkSameAnswers,
  residentMb,
  startProcesses,
  startServer,
  stopAll,
  stopServer,
} from './servers.js'
import { startWireMock, wireMockMissing } from './wiremock.js'

/** The three answers a client's tests need most, served by every test target compared. */
const ANSWERS: ReadonlyArray<Scenario> = [LIST, GET, CREATE]
/** How long WireMock is loaded with each answer before it is measured: its JIT compiles the hot paths. */
const WARM_UP_SECONDS = 10

const TEST_TARGET = 'test-target mode'

const ratioCell = (value: number, target: number): string => `${pad(value, 5, 2)} ${verdict(value >= target).padEnd(7)}`

/** How far ahead of WireMock test-target mode must be on an answer. */
const wireMockTarget = (scenario: Scenario): number => (scenario === CREATE ? TARGETS.wireMockCreate : TARGETS.wireMockReads)

/**
 * The service in test-target mode (seeded-service.ts, BENCH_MODE: sandboxes per key with their
 * journals, faults on) against the default mode, and against WireMock 3.13 serving the same
 * answers as stubs, all in the same alternating rounds; the latency and memory of each.
 */
export const testTargetPart = async (): Promise<void> => {
  const missing = wireMockMissing()
  const servers: Server[] = []
  try {
    let wireMock: Server | undefined
    if (missing === undefined) {
      const source = await startServer('stub source', SERVICE)
      try {
        wireMock = await startWireMock(source, ANSWERS)
        servers.push(wireMock)
      } finally {
        await stopServer(source)
      }
    }
    // One process of each Node build per round (alternate); WireMock is one JVM, warmed up below.
    const defaults = await startProcesses('default mode', SERVICE)
    servers.push(...defaults)
    const testTargets = await startProcesses(TEST_TARGET, SERVICE, { env: { BENCH_MODE: 'test-target' } })
    servers.push(...testTargets)
    // The card's stack with no feature at all: how far above WireMock any build of it can be.
    const straightforwards = wireMock === undefined ? [] : await startProcesses('straightforward', STRAIGHTFORWARD)
    servers.push(...straightforwards)
    // The same with the default features at their least: how far above WireMock any build of them on the stack can be.
    const featureds = wireMock === undefined ? [] : await startProcesses('featured', STRAIGHTFORWARD, { env: { BENCH_FEATURES: 'on' } })
    servers.push(...featureds)
    // In the order the rounds go through them.
    const measured = [...defaults, ...testTargets, ...(wireMock === undefined ? [] : [wireMock]), ...straightforwards, ...featureds]
    const [defaultMode] = defaults
    if (defaultMode === undefined) return
    await checkSameAnswers(defaultMode, measured, ANSWERS)
    if (wireMock === undefined) console.log(`WireMock skipped: ${missing ?? ''}`)
    else for (const scenario of ANSWERS) alone(wireMock, measured, scenario, QUICK ? Math.min(WARM_UP_SECONDS, 5) : WARM_UP_SECONDS)
    const results = alternate(measured, ANSWERS, (server, scenario) =>
      server.name === TEST_TARGET && scenario === CREATE ? RESETTING_CREATE : scenario,
    )
    /** The default mode, test-target mode and WireMock on `scenario`. */
    const modesOf = (scenario: Scenario): [Measure, Measure, Measure] => [
      measureOf(results, scenario, 'default mode'),
      measureOf(results, scenario, TEST_TARGET),
      measureOf(results, scenario, 'WireMock'),
    ]

    console.log(
      `\nTest-target mode (per-key sandboxes and their journals, faults on) against the default mode` +
        `${wireMock === undefined ? '' : ` and WireMock 3.13 (default settings, stubs of the same answers, warmed up ${WARM_UP_SECONDS} s)`}: ` +
        `${ROUNDS} alternating rounds of ${SECONDS}s, medians; ratios by rps, then by CPU per request`,
    )
    console.log(
      `endpoint           default rps  test-target rps  ${`test-target/default (>= ${TARGETS.testTargetMode})`.padEnd(36)}  WireMock rps  ` +
        `test-target/WireMock (target)`,
    )
    const figures = ANSWERS.map((scenario) => {
      const [d, t, w] = modesOf(scenario)
      const row = { byRps: t.rps / d.rps, byCpu: d.cpuUs / t.cpuUs, wireRps: t.rps / w.rps, wireCpu: w.cpuUs / t.cpuUs }
      console.log(
        `${scenario.name.padEnd(17)} ${pad(d.rps, 11)}  ${pad(t.rps, 15)}  ${ratioCell(row.byRps, TARGETS.testTargetMode)} ` +
          `${ratioCell(row.byCpu, TARGETS.testTargetMode)}  ${pad(w.rps, 12)}  ` +
          `${ratioCell(row.wireRps, wireMockTarget(scenario))} ${ratioCell(row.wireCpu, wireMockTarget(scenario))} ` +
          `(>= ${wireMockTarget(scenario)})`,
      )
      return row
    })
    console.log('\nCPU µs per request and p99 ms at 16 connections, the same runs')
    console.log(
      `endpoint            default µs  test-target µs  WireMock µs    default p99  test-target p99  WireMock p99  ` +
        `test-target/WireMock p99 (<= ${TARGETS.wireMockP99})`,
    )
    const p99Ratios = ANSWERS.map((scenario) => {
      const [d, t, w] = modesOf(scenario)
      const ratio = t.p99Ms / w.p99Ms
      console.log(
        `${scenario.name.padEnd(17)} ${pad(d.cpuUs, 12, 1)}  ${pad(t.cpuUs, 14, 1)}  ${pad(w.cpuUs, 11, 1)}  ` +
          `${pad(d.p99Ms, 13, 2)}  ${pad(t.p99Ms, 15, 2)}  ${pad(w.p99Ms, 12, 2)}  ${pad(ratio, 9, 3)} ${verdict(ratio <= TARGETS.wireMockP99)}`,
      )
      return ratio
    })
    const builds = [...new Set(measured.map((server) => server.name))]
    const memory = builds
      .map((name) => {
        const each = measured.filter((server) => server.name === name).map((server) => residentMb(server).toFixed(0))
        return `${name} ${each.join(', ')} MB`
      })
      .join('; ')
    console.log(`Resident memory after the runs: ${memory}`)

    const atLeast = (target: number) => (figure: number) => figure >= target
    const perEndpoint = `(${ANSWERS.map((scenario) => scenario.name).join(', ')})`
    summarise(
      `test-target mode over default mode >= ${TARGETS.testTargetMode}, by rps ${perEndpoint}`,
      figures.map((row) => row.byRps),
      atLeast(TARGETS.testTargetMode),
    )
    summarise(
      `test-target mode over default mode >= ${TARGETS.testTargetMode}, by CPU`,
      figures.map((row) => row.byCpu),
      atLeast(TARGETS.testTargetMode),
    )
    const wireMockTargets = `>= ${ANSWERS.map(wireMockTarget).join(', ')}×`
    if (wireMock === undefined) {
      summariseText(`test-target mode over WireMock 3.13 ${wireMockTargets}`, `skipped: ${missing ?? ''}`)
      return
    }
    const meetsWireMock = (figure: number, index: number): boolean => figure >= wireMockTarget(ANSWERS[index] ?? CREATE)
    summarise(
      `test-target mode over WireMock 3.13 ${wireMockTargets}, by rps`,
      figures.map((row) => row.wireRps),
      meetsWireMock,
      2,
      '×',
    )
    summarise(
      `test-target mode over WireMock 3.13 ${wireMockTargets}, by CPU`,
      figures.map((row) => row.wireCpu),
      meetsWireMock,
      2,
      '×',
    )
    const overWireMock = (name: string): string =>
      ANSWERS.map(
        (scenario) => `${(measureOf(results, scenario, name).rps / measureOf(results, scenario, 'WireMock').rps).toFixed(2)}×`,
      ).join(', ')
    summariseText('  the straightforward build (no features) over WireMock, by rps', overWireMock('straightforward'))
    summariseText('  the same with the default features at their least over WireMock, by rps', overWireMock('featured'))
    summarise(
      `p99 at ${CONNECTIONS} connections, test-target mode over WireMock's <= ${TARGETS.wireMockP99}`,
      p99Ratios,
      (figure) => figure <= TARGETS.wireMockP99,
      3,
    )
    summariseText('resident memory after the runs (no target)', memory)
  } finally {
    await stopAll(servers)
  }
}
