import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { LOAD_CORE, median, requestsOf, waitForQuiet, wrk } from './measure.js'
import { pad, summarise, verdict } from './report.js'
import { CONNECTIONS, GET, KEY, ROUNDS, SCENARIOS, type Scenario, TARGETS, scratchFile } from './scenarios.js'
import { SERVICE, type Server, hasEnded, residentMb, startServer, stopServer } from './servers.js'

const MANY = 1_000_000

/** What the create script writes once it has stopped sending. */
const STOPPED = 'creates answered'

/**
 * A wrk script that creates `count` pets, the seed's names, categories and statuses in turn, then
 * stops its thread once every create has surely been answered (`count` answers and one more per
 * connection): no create is sent twice or left out. It only reads one pet after the last create.
 * wrk calls `request` once before it connects, to check the script, and never sends that request:
 * the count starts below zero for it.
 */
const createScript = (count: number): string =>
  scratchFile(
    `create-${count}.lua`,
    `local limit = ${count}\nlocal sent = -1\nlocal answered = 0\nlocal statuses = {"available", "pending", "sold"}\n` +
      `wrk.headers["Content-Type"] = "application/json"\n` +
      `request = function()\n  sent = sent + 1\n  if sent < 1 or sent > limit then return wrk.format("GET", "/v1/pets/1") end\n` +
      `  local i = sent - 1\n` +
      `  return wrk.format("POST", "/v1/pets", nil, '{"name":"pet ' .. i .. '","categoryId":' .. (i % 10) .. ',"status":"' .. statuses[i % 3 + 1] .. '"}')\n` +
      `end\n` +
      `response = function(status)\n  answered = answered + 1\n` +
      `  if answered == limit + ${CONNECTIONS} then\n    io.write("${STOPPED}\\n")\n    wrk.thread:stop()\n  end\nend\n`,
  )

const statusOf = async (server: Server, path: string): Promise<number> => {
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${KEY}` } })
  await response.arrayBuffer()
  return response.status
}

/**
 * Creates `count` pets in an empty service over HTTP, as clients would, and checks that exactly
 * `count` exist; the seconds it took. wrk runs until its duration ends even when its script has
 * stopped sending, so it is interrupted (it prints its figures then) once the last pet exists.
 */
const createOverHttp = async (server: Server, count: number): Promise<number> => {
  waitForQuiet([server])
  const started = performance.now()
  const args = ['-c', LOAD_CORE, 'wrk', '-t1', '-H', `Authorization: Bearer ${KEY}`, `-c${CONNECTIONS}`, '-d3600s', '--timeout', '30s']
  const load = spawn('taskset', [...args, '-s', createScript(count), `${server.url}/v1/pets`], { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  load.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const ended = once(load, 'close')
  let seconds: number
  try {
    while ((await statusOf(server, `/v1/pets/${count}`)) !== 200) {
      const stopped = load.exitCode !== null || output.includes(STOPPED) || hasEnded(server)
      if (stopped && (await statusOf(server, `/v1/pets/${count}`)) !== 200) throw new Error(`the creates ended before pet ${count} existed`)
      await new Promise((done) => setTimeout(done, 1000))
    }
    seconds = (performance.now() - started) / 1000
  } finally {
    load.kill('SIGINT')
    await ended
  }
  if (/Non-2xx/.test(output)) throw new Error(`non-2xx answers while creating ${count} pets:\n${output}`)
  const past = await statusOf(server, `/v1/pets/${count + 1}`)
  if (past !== 404) throw new Error(`after ${requestsOf(output)} requests, pet ${count + 1} answers ${past}`)
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
    console.log(`endpoint              1,000 pets  ${`${MANY.toLocaleString('en')} pets`.padStart(14)}  change`)
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
      `resident memory, ${MANY.toLocaleString('en')} pets created over HTTP <= ${TARGETS.rssMb} MB`,
      [memory],
      (figure) => figure <= TARGETS.rssMb,
      0,
      ' MB',
    )
  } finally {
    await stopServer(large)
  }
}
