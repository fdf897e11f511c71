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

/**
 * The targets of the issue (docs/performance.md), printed beside the figures. The other comparisons
 * (the minimal server, json-server, a hostile body against JSON.parse) are printed with no target.
 */
export const TARGETS = {
  /**
   * Requests per CPU-second of the service, every default feature on, over the straightforward
   * build's (its CPU per request over the service's), on every endpoint: at least.
   */
  straightforwardCpu: 0.8,
  /** Test-target mode over the default mode: at least. */
  testTargetMode: 0.9,
  /** Test-target mode over WireMock 3.13 serving the same answers as stubs, on list and get: at least. */
  wireMockReads: 1.5,
  /** The same on create: at least. */
  wireMockCreate: 1.2,
  /** Test-target mode's p99 over WireMock's, at 16 connections: at most. */
  wireMockP99: 1 / 5,
  /** Resident memory with 1,000,000 pets created over HTTP, in MB: at most. */
  rssMb: 350,
  /**
   * The service's p99 at a fixed rate of half its own maximum (its median rps at 16 connections)
   * over the minimal server's at the same rate: at most.
   */
  fixedRateP99: 2,
} as const

/**
 * The default features the benchmark can turn off (seeded-service.ts, BENCH_OFF), each without
 * changing the statuses or bodies of its requests; what each does.
 */
export const FEATURES: ReadonlyArray<{ readonly name: string; readonly off: string }> = [
  /** One JSON line per request (LOG_LEVEL). */
  { name: 'log line', off: 'log' },
  /** Counters and histograms of every answer (PETSTORE_METRICS). */
  { name: 'metrics', off: 'metrics' },
  /** X-Request-Id on every answer, and the id in the log line. */
  { name: 'request id', off: 'request-id' },
  /** X-Content-Type-Options: nosniff and Cache-Control: no-store on every answer. */
  { name: 'common headers', off: 'common-headers' },
  /** The bearer key's check, in constant time. */
  { name: 'authentication', off: 'auth' },
  /** A read's ETag and the evaluation of If-None-Match. */
  { name: 'ETag', off: 'etag' },
  /** getPet's Deprecation, Sunset and successor Link. */
  { name: 'deprecation headers', off: 'deprecation' },
  /** `Connection: close` on the last answer at shutdown and after a body left unread. */
  { name: 'connection close', off: 'connection-close' },
  /** Anything thrown answered as a JSON Error, keys redacted from Errors' messages. */
  { name: 'error boundary', off: 'error-boundary' },
  /** A request's whole body received before an operation that does not read it. */
  { name: 'body received', off: 'body-received' },
]

/** What test-target mode adds, each switched by BENCH_SWITCH in that mode (seeded-service.ts). */
export const TEST_TARGET_FEATURES: ReadonlyArray<{ readonly name: string; readonly off: string }> = [
  /** Each request kept in its sandbox's journal (redacted), its contract coverage noted, refused credentials too. */
  { name: 'journal', off: 'journal' },
  /** The caller's own sandbox chosen for the request, instead of everyone's use cases. */
  { name: 'sandbox', off: 'sandbox' },
  /** Prefer's forced failures and delays, and the sandbox's fault script, read on each operation. */
  { name: 'faults', off: 'faults' },
]

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
/**
 * Every request a new Idempotency-Key, so that each is a first create, never a replay: the keys of
 * a wrk run start with 16 random hex digits of its own, since the keys of earlier runs on the same
 * service are still recorded (a count alone starts at 1 again in every run).
 */
const POST_IDEMPOTENT = scratchFile(
  'post-idempotent.lua',
  `wrk.method = "POST"\nwrk.body = '${POST_BODY}'\nwrk.headers["Content-Type"] = "application/json"\n` +
    `local prefix\nlocal n = 0\n` +
    `init = function()\n  local random = io.open("/dev/urandom", "rb")\n` +
    `  prefix = (random:read(8):gsub(".", function(c) return string.format("%02x", c:byte()) end))\n  random:close()\nend\n` +
    `request = function()\n  n = n + 1\n  wrk.headers["Idempotency-Key"] = prefix .. "-" .. n\n  return wrk.format()\nend\n`,
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

/** How many requests of test-target mode's create go between two resets of its sandbox. */
const CREATES_BETWEEN_RESETS = 1000
/**
 * Test-target mode's create: its sandbox reset (POST /v1/sandbox/reset) after every
 * CREATES_BETWEEN_RESETS requests, as a client's suite resets it between tests. A sandbox holds a
 * few thousand pets (its budget): a run of creates without resets would soon be answered 507.
 */
export const RESETTING_CREATE: Scenario = {
  ...CREATE,
  script: scratchFile(
    'post-resetting.lua',
    `wrk.method = "POST"\nwrk.body = '${POST_BODY}'\nwrk.headers["Content-Type"] = "application/json"\n` +
      `local n = 0\nrequest = function()\n  n = n + 1\n` +
      `  if n % ${CREATES_BETWEEN_RESETS} == 0 then return wrk.format("POST", "/v1/sandbox/reset", nil, "") end\n` +
      `  return wrk.format()\nend\n`,
  ),
}
