import { alternate } from './measure.js'
import { pad, summariseText } from './report.js'
import { PETS, ROUNDS, SCENARIOS, SECONDS } from './scenarios.js'
import { JSON_SERVER, RAW, SERVICE, STRAIGHTFORWARD, startServer, stopAll } from './servers.js'

/**
 * The service against json-server 0.17 on the same pets, in its own query language; no target. The
 * minimal server and the straightforward build run in the same rounds: the most any server, and any
 * server on the card's stack, reaches over it.
 */
export const jsonServerPart = async (): Promise<void> => {
  const servers = [
    await startServer('service', SERVICE),
    await startServer('json-server', JSON_SERVER),
    await startServer('minimal', RAW),
    await startServer('straightforward', STRAIGHTFORWARD),
  ]
  try {
    const results = alternate(servers, SCENARIOS)
    const ratios = SCENARIOS.map((scenario) => {
      const rps = (name: string): number => results.get(scenario.name)?.get(name)?.rps ?? NaN
      const jsonServer = rps('json-server')
      return {
        scenario,
        service: rps('service'),
        jsonServer,
        ratio: rps('service') / jsonServer,
        minimal: rps('minimal') / jsonServer,
        straightforward: rps('straightforward') / jsonServer,
      }
    })
    console.log(`\nThe service against json-server 0.17: ${PETS} pets, ${ROUNDS} alternating rounds of ${SECONDS}s (rps, medians)`)
    console.log('endpoint              service rps  json-server rps  service/json-server  minimal/json-server  straightforward/json-server')
    for (const { scenario, service, jsonServer, ratio, minimal, straightforward } of ratios) {
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service, 11)}  ${pad(jsonServer, 15)}  ${pad(ratio, 18, 1)}x  ${pad(minimal, 18, 1)}x  ` +
          `${pad(straightforward, 26, 1)}x`,
      )
    }
    const reach = (pick: (row: (typeof ratios)[number]) => number): string => ratios.map((row) => `${pick(row).toFixed(1)}×`).join(', ')
    summariseText(
      `rps over json-server 0.17's (no target)`,
      reach((row) => row.ratio),
    )
    summariseText(
      '  the most reached over json-server: minimal server; straightforward build',
      `${reach((row) => row.minimal)}; ${reach((row) => row.straightforward)}`,
    )
  } finally {
    await stopAll(servers)
  }
}
