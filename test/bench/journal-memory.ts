import { requestJournal } from '../../adapters/test-target/request-journal.js'

/**
 * What the request journals hold in memory, under churn: `node --expose-gc
 * dist/test/bench/journal-memory.js [live sandboxes] [churned sandboxes] [body bytes]`. Each entry
 * is what a create makes: a request body and an answer of `body bytes` each (4096 by default, the
 * most an entry keeps of a body), the headers a client sends and the service answers. First `live` sandboxes fill their journals (JOURNAL_SIZE entries each) and
 * stay; then `churned` sandboxes, one after another, fill theirs and are cleared, as a sandbox that
 * ends is. Figures only, printed: nothing passes or fails.
 */
const LIVE = Number(process.argv[2] ?? '1000')
const CHURNED = Number(process.argv[3] ?? '10000')
const ENTRIES = 100
const BODY_BYTES = Number(process.argv[4] ?? '4096')

const collect = (): void => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run with node --expose-gc')
  gc()
  gc()
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

const memory = (): { heap: number; rss: number } => {
  collect()
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage()
  return { heap: heapUsed + external - arrayBuffers, rss }
}

/** A text of `bytes` bytes made anew (as a body decoded from the wire is), different for each `seed`. */
const template = Buffer.alloc(BODY_BYTES, 'x')
const freshText = (seed: number): string => {
  template.write(String(seed).padStart(Math.min(12, BODY_BYTES), '0'), 0)
  return template.toString('utf8')
}

const journal = requestJournal()
const fill = (sandbox: string): void => {
  for (let index = 0; index < ENTRIES; index += 1) {
    const place = journal.arrive(sandbox)
    const seed = place.sequence * 7919 + index
    const entry = {
      id: crypto.randomUUID(),
      time: new Date().toISOString(),
      method: 'POST',
      path: '/v1/pets',
      operation: 'createPet',
      status: 201,
      durationMs: 1.234,
      fault: null,
      request: {
        headers: {
          host: '127.0.0.1:8080',
          authorization: 'Bearer [redacted]',
          'content-type': 'application/json',
          'content-length': String(BODY_BYTES),
          'user-agent': `sdk/1.${seed}`,
          'idempotency-key': crypto.randomUUID(),
        },
        body: freshText(seed),
        bodyTruncated: false,
      },
      response: {
        headers: {
          'x-request-id': crypto.randomUUID(),
          'content-type': 'application/json; charset=utf-8',
          location: `/v1/pets/${seed}`,
          'content-length': String(BODY_BYTES),
        },
        body: freshText(seed + 1),
        bodyTruncated: false,
      },
    } as const
    // Shown already: an entry at its largest, as once it has been read.
    place.record({ ...entry, show: () => entry })
  }
}

const before = memory()
console.log(`baseline: heap ${mib(before.heap)}, rss ${mib(before.rss)}`)
for (let sandbox = 0; sandbox < LIVE; sandbox += 1) fill(`live-${sandbox}`)
const live = memory()
const perJournal = (live.heap - before.heap) / LIVE
console.log(
  `${LIVE} live sandboxes × ${ENTRIES} entries: heap +${mib(live.heap - before.heap)} (${mib(perJournal)} a full journal, ` +
    `${(perJournal / ENTRIES / 1024).toFixed(1)} KiB an entry), rss ${mib(live.rss)}`,
)
let peak = live
for (let sandbox = 0; sandbox < CHURNED; sandbox += 1) {
  fill(`churned-${sandbox}`)
  journal.clear(`churned-${sandbox}`)
  if (sandbox % 1000 === 999) {
    const now = memory()
    if (now.heap > peak.heap) peak = now
    console.log(`  after ${sandbox + 1} churned: heap ${mib(now.heap)}, rss ${mib(now.rss)}`)
  }
}
const after = memory()
console.log(
  `${CHURNED} sandboxes made, filled and ended: heap ${mib(after.heap)} (${after.heap >= live.heap ? '+' : ''}${mib(after.heap - live.heap)} ` +
    `against before the churn; highest ${mib(peak.heap)}), rss ${mib(after.rss)}`,
)
for (let sandbox = 0; sandbox < LIVE; sandbox += 1) journal.clear(`live-${sandbox}`)
const cleared = memory()
console.log(`every journal cleared: heap ${mib(cleared.heap)} (baseline ${mib(before.heap)}), rss ${mib(cleared.rss)}`)
