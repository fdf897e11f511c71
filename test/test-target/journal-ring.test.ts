import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { arriveIn, emptyJournal, type Filed, inOrder, JOURNAL_SIZE, settleIn } from '../../adapters/test-target/journal-ring.js'

const Ring = suite('The journal keeps the newest requests in the order they arrived')

Ring(
  'requests kept from their arrival, ended in any order, are the newest that fit JOURNAL_SIZE entries and the budget, and the oldest leave first',
  () => {
    // Each step is a request that arrives, of a size, or one that arrived and ends, taking another size.
    const step = fc.tuple(fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 120 }))
    const runs = fc.tuple(
      fc.integer({ min: 0, max: 3 * JOURNAL_SIZE }).chain((count) => fc.array(step, { minLength: count, maxLength: count })),
      // A budget that bites often, and one that never does.
      fc.constantFrom(100, 1000, 100 * JOURNAL_SIZE),
    )
    fc.assert(
      fc.property(runs, ([steps, budget]) => {
        const journal = emptyJournal<Filed>()
        const arrived: Filed[] = []
        const ended = new Set<number>()
        // What the journal promises: every request from its arrival, in arrival order, its size
        // replaced as it ends, and the oldest leaving, each in turn, to make room.
        const kept: Array<readonly [sequence: number, bytes: number]> = []
        let droppedThrough = 0
        let dropped = 0
        for (const [arrives, pick, bytes] of steps) {
          const filed = arrived[pick % Math.max(1, arrived.length)]
          if (arrives || filed === undefined) {
            const sequence = arrived.length + 1
            const filed: Filed = { sequence, bytes, counted: 0, gone: false }
            arrived.push(filed)
            arriveIn(journal, filed, budget)
            kept.push([sequence, bytes])
          } else {
            if (ended.has(filed.sequence)) continue
            ended.add(filed.sequence)
            filed.bytes = bytes
            settleIn(journal, filed, budget)
            const at = kept.findIndex(([sequence]) => sequence === filed.sequence)
            if (at !== -1) kept[at] = [filed.sequence, bytes]
          }
          const total = (): number => kept.reduce((sum, [, each]) => sum + each, 0)
          while (kept.length > JOURNAL_SIZE || total() > budget) {
            droppedThrough = kept.shift()?.[0] ?? droppedThrough
            dropped += 1
          }
        }
        const sequences = kept.map(([sequence]) => sequence)
        assert.equal(
          inOrder(journal).map((filed) => filed.sequence),
          sequences,
        )
        assert.equal([journal.dropped, journal.droppedThrough], [dropped, droppedThrough])
        assert.is(
          journal.bytes,
          kept.reduce((sum, [, each]) => sum + each, 0),
        )
        // What left the journal is marked gone, and no longer held by it.
        assert.equal(
          arrived.filter((filed) => !filed.gone).map((filed) => filed.sequence),
          sequences,
        )
        assert.is(journal.ring.filter((slot) => slot !== undefined).length, kept.length)
      }),
      { numRuns: 200 },
    )
  },
)

Ring.run()
