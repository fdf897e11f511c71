import { median, waitForQuiet } from './measure.js'
import { ratioText, summariseText } from './report.js'
import { KEY, MAX_BODY_BYTES, POST_BODY, QUICK, SECONDS } from './scenarios.js'
import { SERVICE, type Server, cpuMs, startServer, stopServer } from './servers.js'

/** What hostile bodies cost the service: CPU per create against one JSON.parse, and the latency of others meanwhile. */
interface HostileBody {
  readonly name: string
  readonly text: string
}

/** About 1 MiB: the three fields of a pet, then 90,000 keys the service ignores. */
const ignoredKeysBody = (): HostileBody => {
  const ignored = Array.from({ length: 90_000 }, (_, index) => `"k${index.toString().padStart(5, '0')}":0`)
  const text = `{"name":"Rex","categoryId":1,${ignored.join(',')}}`
  return { name: `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, 90,000 keys the service ignores`, text }
}

/**
 * Just under the body limit: a pet, then one array holding as many `0,[[[[[[[[]]]]]]]]` as fit,
 * that is hundreds of thousands of empty arrays, ten levels deep at most (well within the
 * service's 64): many small values for the parser and any walk of the parsed body to go through.
 */
const nestedArraysBody = (): HostileBody => {
  const head = '{"name":"x","categoryId":1,"a":['
  const unit = '0,[[[[[[[[]]]]]]]]'
  const units = Math.floor((MAX_BODY_BYTES - 1024 - head.length - 2) / (unit.length + 1))
  const text = `${head}${Array.from({ length: units }, () => unit).join(',')}]}`
  const arrays = units * 8 + 1
  return { name: `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, ${arrays.toLocaleString('en')} nested empty arrays`, text }
}

const post = async (server: Server, body: string, key?: string): Promise<number> => {
  const response = await fetch(`${server.url}/v1/pets`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body,
  })
  await response.arrayBuffer()
  return response.status
}

let keys = 0
const newKey = (): string => `hostile-${(keys += 1)}`

/** CPU per create, averaged over `count` sequential creates. */
const cpuPerCreate = async (server: Server, body: string, count: number, withKey: boolean): Promise<number> => {
  for (let index = 0; index < 3; index += 1) await post(server, body, withKey ? newKey() : undefined)
  waitForQuiet([server])
  const before = cpuMs(server)
  for (let index = 0; index < count; index += 1) {
    const status = await post(server, body, withKey ? newKey() : undefined)
    if (status !== 201) throw new Error(`a create answered ${status}`)
  }
  return (cpuMs(server) - before) / count
}

/**
 * The CPU of one `JSON.parse` of `text` in this process (on the load core, not the servers'), in ms:
 * the median of several, after two to warm up. What a body costs any Node server that parses it.
 */
const parseMs = (text: string): number => {
  waitForQuiet([])
  const times: number[] = []
  for (let run = 0; run < 13; run += 1) {
    const started = process.cpuUsage()
    JSON.parse(text)
    const used = process.cpuUsage(started)
    if (run >= 2) times.push((used.user + used.system) / 1000)
  }
  return median(times)
}

/** Latencies of small GETs sent one after another for `ms`. */
const latencies = async (server: Server, ms: number): Promise<number[]> => {
  waitForQuiet([server])
  const times: number[] = []
  const end = performance.now() + ms
  while (performance.now() < end) {
    const started = performance.now()
    const response = await fetch(`${server.url}/v1/pets/1`, { headers: { authorization: `Bearer ${KEY}` } })
    await response.arrayBuffer()
    times.push(performance.now() - started)
  }
  return times
}

/** Latencies of small GETs while three clients send `hostile` without pause, each with a new Idempotency-Key. */
const latenciesUnderAttack = async (server: Server, hostile: string, ms: number): Promise<number[]> => {
  let running = true
  const attackers = Array.from({ length: 3 }, async () => {
    while (running) await post(server, hostile, newKey())
  })
  const times = await latencies(server, ms)
  running = false
  await Promise.all(attackers)
  return times
}

const percentile = (values: ReadonlyArray<number>, share: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN
}

const latencyText = (times: ReadonlyArray<number>): string =>
  `median ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms`

export const hostilePart = async (): Promise<void> => {
  const server = await startServer('service', SERVICE)
  const bodies = [ignoredKeysBody(), nestedArraysBody()]
  const count = QUICK ? 5 : 20
  const ms = QUICK ? 2000 : SECONDS * 1000
  try {
    for (const body of bodies) {
      if (Buffer.byteLength(body.text) >= MAX_BODY_BYTES) throw new Error(`the hostile body ${body.name} is over the body limit`)
    }
    const small = await cpuPerCreate(server, POST_BODY, QUICK ? 200 : 1000, false)
    const alone = await latencies(server, ms)
    console.log(`\nHostile bodies: the service's CPU per create, against one JSON.parse of the same text in this process (median of 11)`)
    console.log(`A small create: ${small.toFixed(2)} ms of CPU (sent one at a time: mostly waking up for each request)`)
    console.log(`A small GET, one at a time, alone: ${latencyText(alone)}`)
    const ratios: number[] = []
    for (const body of bodies) {
      const plain = await cpuPerCreate(server, body.text, count, false)
      const keyed = await cpuPerCreate(server, body.text, count, true)
      const parse = parseMs(body.text)
      const ratio = plain / parse
      ratios.push(ratio)
      const underAttack = await latenciesUnderAttack(server, body.text, ms)
      console.log(`\n${body.name}`)
      console.log(
        `CPU per create: ${plain.toFixed(1)} ms; JSON.parse alone: ${parse.toFixed(1)} ms; create/JSON.parse ${ratio.toFixed(2)}x; ` +
          `with an Idempotency-Key: ${keyed.toFixed(1)} ms`,
      )
      console.log(`A small GET, one at a time, while 3 clients send this body: ${latencyText(underAttack)}`)
    }
    summariseText(`a hostile body's CPU over one JSON.parse of it (no target)`, ratios.map((ratio) => `${ratioText(ratio)}×`).join(', '))
  } finally {
    await stopServer(server)
  }
}
