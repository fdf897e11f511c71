import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { file, inOrder, JOURNAL_SIZE, type SandboxJournal } from '../../adapters/test-target/journal-ring.js'
import type { JournalRecord } from '../../adapters/test-target/request-journal.js'

const RECORD: JournalRecord = {
  operation: null,
  status: 200,
  fault: null,
  response: { body: null, bodyTruncated: false },
  show: () => {
    throw new Error('not shown here')
  },
}

const Ring = suite('The journal keeps the newest requests in the order they arrived')

Ring('requests filed in any order are kept in arrival order, the newest JOURNAL_SIZE, and the rest counted as dropped', () => {
  // Requests 1..count arrive in turn and end in the order `ends` gives them.
  const endings = fc.integer({ min: 0, max: 3 * JOURNAL_SIZE }).chain((count) =>
    fc.shuffledSubarray(
      Array.from({ length: count }, (_, index) => index + 1),
      { minLength: count, maxLength: count },
    ),
  )
  fc.assert(
    fc.property(endings, (ends) => {
      const journal: SandboxJournal = { next: ends.length + 1, ring: [], first: 0, dropped: 0 }
      // What the journal promises: filed in arrival order, the oldest leaving a full journal, and
      // one that ends older than every request of a full journal never entering it.
      let kept: number[] = []
      let dropped = 0
      for (const sequence of ends) {
        file(journal, { sequence, record: RECORD })
        if (kept.length === JOURNAL_SIZE && sequence < (kept[0] ?? 0)) dropped += 1
        else {
          kept = [...kept, sequence].sort((a, b) => a - b)
          if (kept.length > JOURNAL_SIZE) {
            kept = kept.slice(1)
            dropped += 1
          }
        }
      }
      assert.equal(
        inOrder(journal).map((filed) => filed.sequence),
        kept,
      )
      assert.is(journal.dropped, dropped)
    }),
    { numRuns: 300 },
  )
})

Ring.run()
