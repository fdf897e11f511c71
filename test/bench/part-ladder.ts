import { alternate } from './measure.js'
import { pad, signed } from './report.js'
import { GET, LIST } from './scenarios.js'
import { LADDER, RAW, SERVICE, checkSameAnswers, startServer, stopAll } from './servers.js'

/** The ladder's rungs below the service (ladder-server.ts, BENCH_RUNG), in order. */
const RUNGS = ['koa', 'router', 'edge', 'auth', 'routes']

/** Each layer, as the table names it, for each server of the ladder in order. */
const LABELS: Readonly<Record<string, string>> = {
  minimal: 'Node and the minimal answer (the minimal server)',
  koa: '+ Koa, answering from a Map and an array',
  router: '+ @koa/router: GET /v1/pets/:petId, GET /v1/pets',
  edge: '+ edge: request id, common headers, error boundary',
  auth: '+ authentication',
  routes: '+ the operation: use case, ETag, deprecation, paging link',
  composed: '+ the other routes, 404/405 answers: the service, no log or metrics',
  logged: '+ the log line',
  service: '+ metrics: the service as users run it',
}

/**
 * Where a request's CPU goes: getPet and listPets built up a layer at a time (ladder-server.ts),
 * then the composed service with its log line and metrics off, with the log line, and with both.
 * One table: per layer, the CPU µs per request of the server that adds it, and what it added.
 */
export const ladderPart = async (): Promise<void> => {
  const servers = [
    await startServer('minimal', RAW),
    ...(await Promise.all(RUNGS.map((rung) => startServer(rung, LADDER, { env: { BENCH_RUNG: rung }, ready: '/v1/pets/1' })))),
    await startServer('composed', SERVICE, { env: { BENCH_OFF: 'log,metrics' } }),
    await startServer('logged', SERVICE, { env: { BENCH_OFF: 'metrics' } }),
    await startServer('service', SERVICE),
  ]
  try {
    const service = servers[servers.length - 1]
    if (service !== undefined) await checkSameAnswers(service, servers, [GET, LIST])
    const results = alternate(servers, [GET, LIST])
    const scenarios = [GET, LIST]
    console.log(`\nWhere a request's CPU µs go: ${scenarios.map((scenario) => scenario.name).join(' and ')}, a layer at a time (medians)`)
    console.log(`${'layer'.padEnd(68)}${scenarios.map((scenario) => `${scenario.name.padStart(16)}     added`).join('')}`)
    const previous = new Map<string, number>()
    for (const server of servers) {
      const cells = scenarios.map((scenario) => {
        const cpuUs = results.get(scenario.name)?.get(server.name)?.cpuUs ?? NaN
        const before = previous.get(scenario.name)
        previous.set(scenario.name, cpuUs)
        return `${pad(cpuUs, 16, 1)}  ${(before === undefined ? '' : signed(cpuUs - before)).padStart(8)}`
      })
      console.log(`${(LABELS[server.name] ?? server.name).padEnd(68)}${cells.join('')}`)
    }
  } finally {
    await stopAll(servers)
  }
}
