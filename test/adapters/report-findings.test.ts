import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { findingsOf } from '../../adapters/test-target/findings.js'
import type { SettledEntry as JournalEntry } from '../../adapters/test-target/journal-entry.js'
import { warningsOf } from '../../adapters/test-target/warnings.js'

/** A request to listPets as the journal shows it: arrived at `arrivedMs`, answered `durationMs` later, offering `next` when given. */
const listed = (path: string, arrivedMs: number, durationMs: number, next?: string): Omit<JournalEntry, 'sequence'> => ({
  id: path,
  time: new Date(arrivedMs).toISOString(),
  method: 'GET',
  path,
  operation: 'listPets',
  state: 'answered',
  status: 200,
  durationMs,
  fault: null,
  request: { headers: {}, headersTruncated: false, body: null, bodyTruncated: false },
  response: {
    headers: next === undefined ? {} : { link: `<${next}>; rel="next"` },
    headersTruncated: false,
    body: '[]',
    bodyTruncated: false,
  },
})

/** The path of page `page` (from 0) of a walk of `limit` a page: the first has no cursor, each next one its page's. */
const pagePath = (page: number): string => (page === 0 ? '/v1/pets?limit=1' : `/v1/pets?limit=1&after=${page}`)

/** Requests numbered in the order they arrived, as the journal keeps them. */
const inArrivalOrder = (requests: ReadonlyArray<Omit<JournalEntry, 'sequence'>>): ReadonlyArray<JournalEntry> =>
  [...requests].sort((one, other) => Date.parse(one.time) - Date.parse(other.time)).map((request, at) => ({ ...request, sequence: at + 1 }))

/**
 * One walk through `pages` pages from `startMs`: each page answered after its duration, the next asked
 * for its gap after that answer (so never before it), each page's Link naming the next but the last's.
 */
const walk = (pages: number, startMs: number, timings: ReadonlyArray<readonly [durationMs: number, gapMs: number]>) => {
  const requests: Array<Omit<JournalEntry, 'sequence'>> = []
  let arrivedMs = startMs
  for (let page = 0; page < pages; page += 1) {
    const [durationMs, gapMs] = timings[page] ?? [0, 0]
    requests.push(listed(pagePath(page), arrivedMs, durationMs, page + 1 < pages ? pagePath(page + 1) : undefined))
    arrivedMs += durationMs + 1 + gapMs
  }
  return requests
}

const Judged = suite('Findings and warnings judged from a journal, whatever the timing of its requests')

Judged('two page walks side by side, each following its Link, give no finding and no warning, however their requests interleave', () => {
  const timings = fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 })), { minLength: 6, maxLength: 6 })
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 30 }), timings, timings, (pages, lateMs, one, other) => {
      const entries = inArrivalOrder([...walk(pages, 1_000, one), ...walk(pages, 1_000 + lateMs, other)])
      assert.equal([findingsOf(entries), warningsOf(entries)], [[], []])
    }),
  )
})

Judged(
  'a walk that reads its first page again instead of following its Link is warned link_not_followed, whatever walk runs beside it',
  () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 0, max: 30 }), (pages, lateMs) => {
        const restarted = [listed(pagePath(0), 1_000, 1, pagePath(1)), ...walk(pages, 1_010, [])]
        const entries = inArrivalOrder([...restarted, ...walk(pages, 1_000 + lateMs, [])])
        assert.equal(
          warningsOf(entries).map((warning) => warning.code),
          ['link_not_followed'],
        )
        assert.equal(findingsOf(entries), [])
      }),
    )
  },
)

Judged.run()
