import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The benchmark's settings (docs/performance.md), its requests and the targets of the issue. */
export const QUICK = process.env.BENCH_QUICK === '1'
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? '1' : '3'))
export const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? '2' : '5'))
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? '16')
export const KEY = 'bench-key-0123456789abcdef'
export const PETS = 1000
/** The service's largest accepted body (PETSTORE_MAX_BODY_BYTES's default): hostile bodies stay under it. */
export const MAX_BODY_BYTES = 1024 * 1024

/** The targets of the issue, printed beside the figures. */
export const TARGETS = {
  /** Straightforward build's CPU per request over the service's, on every endpoint. */
  straightforwardCpu: 1.0,
  /** The service's share of the minimal server, by rps and by CPU, on every endpoint. */
  minimal: 0.4,
  /** Service rps over json-server 0.17's. */
  jsonServer: 8,
  /** Test-target mode over the default mode. */
  testTargetMode: 0.8,
  /** Test-target mode over WireMock 3.13 serving the same answers as stubs. */
  wireMock: 2,
  /** Resident memory with 1,000,000 pets created over HTTP, in MB. */
  rssMb: 350,
  /** The service's p99 at 16 connections over the minimal server's. */
  p99: 2,
  /** A hostile body's CPU per create over one JSON.parse of it. */
  parse: 1.5,
} as const

export interface Scenario {
  readonly name: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  /** json-server 0.17's spelling of the same request. */
  readonly jsonServerPath: string
  /** The wrk script that sends it; none for a plain GET. */
  readonly script?: string
}

export const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'))

/** A file of the run's scratch directory, written now. */
export const scratchFile = (name: string, text: string): string => {
  const file = join(work, name)
  writeFileSync(file, text)
  return file
}

export const POST_BODY = '{"name":"Rex","categoryId":1,"status":"sold"}'
const POST = scratchFile('post.lua', `wrk.method = "POST"\nwrk.body = '${POST_BODY}'\nwrk.headers["Content-Type"] = "application/json"\n`)
/** Every request a new Idempotency-Key, so that each is a first create, never a replay. */
const POST_IDEMPOTENT = scratchFile(
  'post-idempotent.lua',
  `wrk.method = "POST"\nwrk.body = '${POST_BODY}'\nwrk.headers["Content-Type"] = "application/json"\n` +
    `local n = 0\nrequest = function()\n  n = n + 1\n  wrk.headers["Idempotency-Key"] = "bench-" .. n\n  return wrk.format()\nend\n`,
)

export const LIST: Scenario = { name: 'list (limit 20)', method: 'GET', path: '/v1/pets?limit=20', jsonServerPath: '/pets?_limit=20' }
export const LIST_SOLD: Scenario = {
  name: 'list status=sold',
  method: 'GET',
  path: '/v1/pets?limit=20&status=sold',
  jsonServerPath: '/pets?status=sold&_limit=20',
}
export const GET: Scenario = { name: 'get by id', method: 'GET', path: `/v1/pets/${PETS / 2}`, jsonServerPath: `/pets/${PETS / 2}` }
export const CREATE: Scenario = { name: 'create', method: 'POST', path: '/v1/pets', jsonServerPath: '/pets', script: POST }
// Create last: the pets it adds come after every page and id the other scenarios read.
export const SCENARIOS: ReadonlyArray<Scenario> = [LIST, LIST_SOLD, GET, CREATE]
export const IDEMPOTENT_CREATE: Scenario = { ...CREATE, name: 'create, Idempotency-Key', script: POST_IDEMPOTENT }
