import { median, requestsOf, runWrk, waitForQuiet, wrk } from './measure.js'
import { pad, summarise, verdict } from './report.js'
import { CONNECTIONS, GET, KEY, ROUNDS, SCENARIOS, type Scenario, TARGETS, scratchFile } from './scenarios.js'
import { SERVICE, type Server, residentMb, startServer, stopServer } from './servers.js'

const MANY = 1_000_000

/**
 * A wrk script that creates `count` pets, the seed's names, categories and statuses in turn, then
 * only reads one pet until it stops itself: it stops once every create has surely been answered
 * (`count` answers and one more per connection), so that no create is sent twice or left out.
 */
const createScript = (count: number): string =>
  scratchFile(
    `create-${count}.lua`,
    `local limit = ${count}\nlocal sent = 0\nlocal answered = 0\nlocal statuses = {"available", "pending", "sold"}\n` +
      `wrk.headers["Content-Type"] = "application/json"\n` +
      `request = function()\n  sent = sent + 1\n  if sent > limit then return wrk.format("GET", "/v1/pets/1") end\n` +
      `  local i = sent - 1\n` +
      `  return wrk.format("POST", "/v1/pets", nil, '{"name":"pet ' .. i .. '","categoryId":' .. (i % 10) .. ',"status":"' .. statuses[i % 3 + 1] .. '"}')\n` +
      `end\n` +
      `response = function(status)\n  answered = answered + 1\n  if answered >= limit + ${CONNECTIONS} then wrk.thread:stop() end\nend\n`,
  )

const statusOf = async (server: Server, path: string): Promise<number> => {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } })
  await response.arrayBuffer()
  return response.status
}

/** Creates `count` pets in an empty service over HTTP, as clients would; checks that exactly `count` exist. */
const createOverHttp = async (server: Server, count: number): Promise<number> => {
  waitForQuiet([server])
  const started = performance.now()
  const output = runWrk(server, [`-c${CONNECTIONS}`, '-d3600s', '--timeout', '30s', '-s', createScript(count), `${server.url}/v1/pets`])
  const seconds = (performance.now() - started) / 1000
  if (/Non-2xx/.test(output)) throw new Error(`non-2xx answers while creating ${count} pets:\n${output}`)
  const [last, past] = [await statusOf(server, `/v1/pets/${count}`), await statusOf(server, `/v1/pets/${count + 1}`)]
  if (last !== 200 || past !== 404)
    throw new Error(`after ${requestsOf(output)} requests, pet ${count} answers ${last}, pet ${count + 1} ${past}`)
  return seconds
}

/** The reads on `server`, the get of its middle pet; the median rps of ROUNDS runs after one to warm up. */
const reads = (server: Server, pets: number): Map<string, number> => {
  const figures = new Map<string, number>()
  for (const scenario of SCENARIOS.filter((each: Scenario) => each.method === 'GET')) {
    const path = scenario === GET ? `/v1/pets/${pets / 2}` : scenario.path
    wrk(server, scenario, { path })
    figures.set(scenario.name, median(Array.from({ length: ROUNDS }, () => wrk(server, scenario, { path }).rps)))
  }
  return figures
}

/** How the reads hold up with 1,000,000 pets, created over HTTP, and the resident memory they take. */
export const scalingPart = async (): Promise<void> => {
  const small = await startServer('service', SERVICE)
  let few: Map<string, number>
  try {
    few = reads(small, 1000)
  } finally {
    await stopServer(small)
  }
  const large = await startServer(`service, ${MANY.toLocaleString('en')} pets`, SERVICE, { pets: 0 })
  try {
    const seconds = await createOverHttp(large, MANY)
    const afterCreates = residentMb(large)
    const many = reads(large, MANY)
    const afterReads = residentMb(large)
    console.log(`\nScaling of the service: 1,000 seeded pets against ${MANY.toLocaleString('en')} created over HTTP (rps, medians)`)
    console.log(
      `(${MANY.toLocaleString('en')} creates, ${CONNECTIONS} connections: ${seconds.toFixed(0)} s, ${(MANY / seconds).toFixed(0)} a second)`,
    )
    console.log('endpoint              1,000 pets  1,000,000 pets  change')
    for (const [name, before] of few) {
      const after = many.get(name) ?? NaN
      console.log(`${name.padEnd(20)} ${pad(before, 10)}  ${pad(after, 14)}  ${pad((100 * (after - before)) / before, 6, 1)}%`)
    }
    const memory = Math.max(afterCreates, afterReads)
    console.log(
      `\nResident memory of the service with ${MANY.toLocaleString('en')} pets created over HTTP: ${afterCreates.toFixed(0)} MB after the ` +
        `creates, ${afterReads.toFixed(0)} MB after the reads (<= ${TARGETS.rssMb} MB: ${verdict(memory <= TARGETS.rssMb)})`,
    )
    summarise(
      `resident memory, 1,000,000 pets created over HTTP <= ${TARGETS.rssMb} MB`,
      [memory],
      (figure) => figure <= TARGETS.rssMb,
      0,
      ' MB',
    )
  } finally {
    await stopServer(large)
  }
}
