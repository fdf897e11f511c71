import { Agent, request } from 'node:http'
import * as E from 'fp-ts/Either'
import pino from 'pino'
import { readConfig } from '../../src/main/config.js'
import { startService } from '../../src/main/service.js'
import { openStore } from '../../src/main/store.js'
import { JOURNAL_SIZE } from '../../adapters/test-target/journal-ring.js'
import { DEFAULT_SANDBOX_BUDGET, SANDBOX_OVERHEAD_BYTES, sandboxBytes } from '../../src/store/sandbox-budget.js'

/**
 * The test target's worst case against its memory rule: `node --expose-gc
 * dist/test/bench/sandbox-memory.js [sandboxes] [seed]`. Starts the service as `npm start` composes
 * it (test target on, the demo seed unless `seed` is `none`), makes `sandboxes` sandboxes and fills
 * each to its budget with what costs it most: creates with an Idempotency-Key of 255 characters and a
 * name of 200 until refused (507), the largest fault script of rules matching on a body of empty
 * objects it accepts, then more GETs than a journal keeps (JOURNAL_SIZE), of three kinds in turn, the
 * last of 1,780 header lines each (the 15 KB an attacker sent), each kind's journal read and counted,
 * which makes every entry as it is shown; then reads each one's report. Prints the heap and
 * RSS each sandbox added, against its budget. Figures only: nothing passes or fails.
 */
const SANDBOXES = Number(process.argv[2] ?? '50')
const SEED = process.argv[3] ?? 'demo'
const HEADER_LINES = 1780
/** More than a journal keeps, so that each fill reaches whichever bound comes first, its count or its budget. */
const GETS = JOURNAL_SIZE + 100

const MIB = 1024 * 1024
const mib = (bytes: number): string => `${(bytes / MIB).toFixed(2)} MiB`

const collect = (): void => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run with node --expose-gc')
  gc()
  gc()
}

const memory = (): { heap: number; rss: number } => {
  collect()
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage()
  return { heap: heapUsed + external - arrayBuffers, rss }
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 })

/** One exchange: its status and body; the header lines go as listed. */
const call = (
  url: string,
  key: string,
  method: string,
  path: string,
  { body, lines = [] }: { readonly body?: unknown; readonly lines?: ReadonlyArray<readonly [string, string]> } = {},
): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const headers = [
      ['Host', new URL(url).host],
      ['Authorization', `Bearer ${key}`],
      ...(payload === undefined ? [] : [['Content-Type', 'application/json'] as const]),
      ...(payload === undefined ? [] : [['Content-Length', String(Buffer.byteLength(payload))] as const]),
      ...lines,
    ].flat()
    const outgoing = request(`${url}${path}`, { method, headers, agent }, (incoming) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
    })
    outgoing.on('error', reject)
    outgoing.end(payload)
  })

const expect = async (answer: Promise<{ status: number; text: string }>, status: number): Promise<string> => {
  const { status: got, text } = await answer
  if (got !== status) throw new Error(`expected ${status}, got ${got}: ${text.slice(0, 200)}`)
  return text
}

/** `HEADER_LINES` header lines of about 8 bytes each, as the attack sent them. */
const ATTACK_LINES = Array.from({ length: HEADER_LINES }, (_, index) => [`h${index}`, 'v'] as const)

/** A rule matching createPet on a body whose `t` is as many empty objects as a `when` may hold. */
const EMPTIES_RULE = { operation: 'createPet', when: { body: { t: Array.from({ length: 330 }, () => ({})) } }, fault: '503', times: 1 }

/** Creates pets in a sandbox until it refuses one (507); answers how many it took. */
const createUntilFull = async (url: string, key: string, index: number): Promise<number> => {
  for (let pets = 0; ; pets += 1) {
    const name = `${String(index).padStart(6, '0')}${String(pets).padStart(6, '0')}`.padEnd(200, 'n')
    const { status } = await call(url, key, 'POST', '/v1/pets', {
      body: { name, categoryId: pets },
      lines: [['Idempotency-Key', name.padEnd(255, 'k')]],
    })
    if (status === 507) {
      // The journal's part is measured apart, below.
      await expect(call(url, key, 'DELETE', '/v1/sandbox/requests'), 204)
      return pets
    }
    if (status !== 201) throw new Error(`create: ${status}`)
  }
}

/** Sets the most rules of EMPTIES_RULE a sandbox's script may hold, found by bisection; answers how many. */
const largestScript = async (url: string, key: string): Promise<number> => {
  let [accepted, refused] = [0, 101]
  while (refused - accepted > 1) {
    const rules = Math.floor((accepted + refused) / 2)
    const { status } = await call(url, key, 'PUT', '/v1/sandbox/faults', { body: Array.from({ length: rules }, () => EMPTIES_RULE) })
    if (status === 200) accepted = rules
    else refused = rules
  }
  await expect(call(url, key, 'PUT', '/v1/sandbox/faults', { body: Array.from({ length: accepted }, () => EMPTIES_RULE) }), 200)
  return accepted
}

/** Requests that fill a journal, each kind in its own pass: what an entry of each costs against its estimate. */
const JOURNAL_FILLS: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
  ['GETs of a page, with no other header', []],
  ['GETs of 64 one-character header fields', Array.from({ length: 63 }, (_, index) => [`h${index}`, 'v'] as const)],
  [`GETs of ${HEADER_LINES} header lines (the attack)`, ATTACK_LINES],
]

/** Clears a sandbox's journal, then fills it with GETS of a kind of request (JOURNAL_FILLS) and reads it. */
const journalFill =
  (lines: ReadonlyArray<readonly [string, string]>) =>
  async (url: string, key: string): Promise<number> => {
    for (let get = 0; get < GETS; get += 1) await expect(call(url, key, 'GET', '/v1/pets', { lines }), 200)
    await expect(call(url, key, 'GET', `/v1/sandbox/requests?limit=${JOURNAL_SIZE}`, {}), 200)
    return (JSON.parse(await expect(call(url, key, 'GET', '/v1/sandbox/requests/count', {}), 200)) as { count: number }).count
  }

const clearJournal = async (url: string, key: string): Promise<number> => {
  await expect(call(url, key, 'DELETE', '/v1/sandbox/requests'), 204)
  return 0
}

const read = async (url: string, key: string): Promise<number> => {
  await expect(call(url, key, 'GET', '/v1/sandbox/report', {}), 200)
  return 1
}

/** Runs `step` on every sandbox, four clients at once; answers what the last one answered. */
const onEach = async (
  url: string,
  keys: ReadonlyArray<string>,
  step: (url: string, key: string, index: number) => Promise<number>,
): Promise<number> => {
  let next = 0
  let answered = 0
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < keys.length) {
        const index = next
        next += 1
        answered = await step(url, keys[index] ?? '', index)
      }
    }),
  )
  return answered
}

const main = async (): Promise<void> => {
  const key = 'bench-key-0123456789abcdef'
  const config = readConfig(
    {
      PORT: '0',
      PETSTORE_API_KEYS: key,
      PETSTORE_TEST_TARGET: 'on',
      PETSTORE_METRICS: 'off',
      PETSTORE_SANDBOX_MAX: String(SANDBOXES),
      ...(SEED === 'none' ? {} : { PETSTORE_SEED: SEED }),
    },
    () => key,
  )
  if (E.isLeft(config)) throw new Error(config.left.join('; '))
  const store = await openStore(config.right.store, config.right.seed?.pets)
  if (E.isLeft(store)) throw new Error(store.left)
  const started = await startService(config.right, store.right, pino({ level: 'silent' }))
  if (E.isLeft(started)) throw new Error(started.left.message)
  const { url, close } = started.right
  await expect(call(url, key, 'GET', '/v1/pets', { lines: ATTACK_LINES }), 200)
  const empty = memory()
  const keys: string[] = []
  for (let index = 0; index < SANDBOXES; index += 1) {
    keys.push((JSON.parse(await expect(call(url, key, 'POST', '/v1/sandboxes'), 201)) as { key: string }).key)
  }
  // Made, and each used once: what a sandbox costs before it holds anything.
  for (const made of keys) await expect(call(url, made, 'GET', '/v1/pets'), 200)
  const before = memory()
  const seeded = config.right.seed?.pets.length ?? 0
  const budget = sandboxBytes(DEFAULT_SANDBOX_BUDGET, seeded)
  const overhead = (before.heap - empty.heap) / SANDBOXES
  console.log(
    `${SANDBOXES} sandboxes made and used once (seed: ${SEED}, ${seeded} pets), each with a budget of ${mib(budget)}: ` +
      `heap +${mib(overhead)} a sandbox (counted: ${mib(budget - sandboxBytes(DEFAULT_SANDBOX_BUDGET, 0) + SANDBOX_OVERHEAD_BYTES)}), ` +
      `rss +${mib((before.rss - empty.rss) / SANDBOXES)}`,
  )
  const startedAt = performance.now()
  const phases: ReadonlyArray<readonly [string, number, (url: string, key: string, index: number) => Promise<number>]> = [
    ['keyed creates of 200-character names until 507', DEFAULT_SANDBOX_BUDGET.storeBytes, createUntilFull],
    ['the largest script of rules of 330 empty objects', DEFAULT_SANDBOX_BUDGET.scriptBytes, largestScript],
    ...JOURNAL_FILLS.flatMap(([what, lines]) => [
      ['(the journal cleared)', 0, clearJournal] as const,
      [`entries kept of ${GETS} ${what}, the journal read`, DEFAULT_SANDBOX_BUDGET.journalBytes, journalFill(lines)] as const,
    ]),
    ['reads of the report', 0, read],
  ]
  let last = before
  // The most each part took, of any kind of request that fills it.
  const most = new Map<number, number>()
  for (const [what, part, step] of phases) {
    const count = await onEach(url, keys, step)
    const now = memory()
    const each = (now.heap - last.heap) / SANDBOXES
    most.set(part, Math.max(most.get(part) ?? 0, each))
    const share = part === 0 ? '' : `, ${((100 * each) / part).toFixed(0)}% of its part of the budget, ${mib(part)}`
    console.log(`  ${count} ${what}: heap +${mib(each)} a sandbox${share}; rss +${mib((now.rss - last.rss) / SANDBOXES)}`)
    last = now
  }
  const after = last
  const heapEach = (after.heap - before.heap) / SANDBOXES
  const rssEach = (after.rss - before.rss) / SANDBOXES
  console.log(`filled in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`)
  console.log(`heap ${mib(after.heap)} (+${mib(heapEach)} a sandbox, ${((100 * heapEach) / budget).toFixed(0)}% of its budget)`)
  console.log(`rss ${mib(after.rss)} (+${mib(rssEach)} a sandbox, ${((100 * rssEach) / budget).toFixed(0)}% of its budget)`)
  const worst = overhead + [...most.entries()].reduce((sum, [part, each]) => sum + (part === 0 ? 0 : each), 0)
  console.log(
    `worst case of a sandbox, its costliest fill of each part with what it costs empty: heap ${mib(worst)}, ` +
      `${((100 * worst) / budget).toFixed(0)}% of its budget`,
  )
  for (const made of keys) await expect(call(url, made, 'DELETE', '/v1/sandbox'), 204)
  const ended = memory()
  console.log(`every made sandbox ended: heap ${mib(ended.heap)} (before filling: ${mib(before.heap)}), rss ${mib(ended.rss)}`)
  agent.destroy()
  await close()
}

void main()
