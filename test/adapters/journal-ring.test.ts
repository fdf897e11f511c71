import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { emptyJournal, file, inOrder, JOURNAL_SIZE } from '../../adapters/test-target/journal-ring.js'
import type { JournalRecord } from '../../adapters/test-target/journal-entry.js'

const recordOf = (bytes: number): JournalRecord => ({
  operation: null,
  status: 200,
  fault: null,
  response: { body: null, bodyTruncated: false },
  bytes,
  show: () => {
    throw new Error('not shown here')
  },
})

const Ring = suite('The journal keeps the newest requests in the order they arrived')

Ring(
  'requests filed in any order are kept in arrival order, the newest that fit JOURNAL_SIZE entries and the budget, and the rest counted as dropped',
  () => {
    // Requests 1..count arrive in turn, each of a size, and end in the order `ends` gives them.
    const filings = fc.integer({ min: 0, max: 3 * JOURNAL_SIZE }).chain((count) =>
      fc.tuple(
        fc.shuffledSubarray(
          Array.from({ length: count }, (_, index) => index + 1),
          { minLength: count, maxLength: count },
        ),
        fc.array(fc.integer({ min: 1, max: 120 }), { minLength: count, maxLength: count }),
        // A budget that bites often, and one that never does.
        fc.constantFrom(100, 1000, 100 * JOURNAL_SIZE),
      ),
    )
    fc.assert(
      fc.property(filings, ([ends, sizes, budget]) => {
        const journal = emptyJournal()
        // What the journal promises: filed in arrival order, the oldest leaving to make room, and
        // one that would itself be the oldest to leave never entering it.
        let kept: ReadonlyArray<readonly [sequence: number, bytes: number]> = []
        let dropped = 0
        for (const sequence of ends) {
          const bytes = sizes[sequence - 1] ?? 1
          file(journal, { sequence, record: recordOf(bytes) }, budget)
          kept = [...kept, [sequence, bytes] as const].sort(([a], [b]) => a - b)
          const total = (): number => kept.reduce((sum, [, each]) => sum + each, 0)
          while (kept.length > JOURNAL_SIZE || total() > budget) {
            const [oldest] = kept[0] ?? [0]
            kept = kept.slice(1)
            dropped += 1
            if (oldest === sequence) break
          }
        }
        assert.equal(
          inOrder(journal).map((filed) => filed.sequence),
          kept.map(([sequence]) => sequence),
        )
        assert.is(journal.dropped, dropped)
        assert.is(
          journal.bytes,
          kept.reduce((sum, [, each]) => sum + each, 0),
        )
        // What left the journal is no longer held by it.
        assert.is(journal.ring.filter((slot) => slot !== undefined).length, kept.length)
      }),
      { numRuns: 300 },
    )
  },
)

Ring.run()
