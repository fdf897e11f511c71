import { alternate } from './measure.js'
import { pad, summarise, verdict } from './report.js'
import { PETS, ROUNDS, SCENARIOS, SECONDS, TARGETS } from './scenarios.js'
import { JSON_SERVER, SERVICE, startServer, stopAll } from './servers.js'

/** The service against json-server 0.17 on the same pets, in its own query language. */
export const jsonServerPart = async (): Promise<void> => {
  const servers = [await startServer('service', SERVICE), await startServer('json-server', JSON_SERVER)]
  try {
    const results = alternate(servers, SCENARIOS)
    const ratios = SCENARIOS.map((scenario) => {
      const service = results.get(scenario.name)?.get('service')?.rps ?? NaN
      const jsonServer = results.get(scenario.name)?.get('json-server')?.rps ?? NaN
      return { scenario, service, jsonServer, ratio: service / jsonServer }
    })
    console.log(`\nThe service against json-server 0.17: ${PETS} pets, ${ROUNDS} alternating rounds of ${SECONDS}s (rps, medians)`)
    console.log('endpoint              service rps  json-server rps  service/json-server (target)')
    for (const { scenario, service, jsonServer, ratio } of ratios) {
      console.log(
        `${scenario.name.padEnd(20)} ${pad(service, 11)}  ${pad(jsonServer, 15)}  ${pad(ratio, 18, 1)}x ` +
          `(>= ${TARGETS.jsonServer}x: ${verdict(ratio >= TARGETS.jsonServer)})`,
      )
    }
    summarise(
      `rps over json-server 0.17's >= ${TARGETS.jsonServer}×`,
      ratios.map(({ ratio }) => ratio),
      (figure) => figure >= TARGETS.jsonServer,
      1,
      '×',
    )
  } finally {
    await stopAll(servers)
  }
}
