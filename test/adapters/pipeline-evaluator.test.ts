import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { applyPipeline } from '../support/pipeline-evaluator.js'

const NOW = new Date('2026-03-01T12:00:00Z')
const DOC = { _id: 'd', nothing: null, count: 5 }

/** What one expression evaluates to on DOC, read back through a `$set` stage. */
const valueOf = (expression: unknown): unknown => applyPipeline(DOC, 'd', [{ $set: { out: expression } }], NOW).out

const Evaluator = suite('The pipeline reading used without a mongod follows the server')

Evaluator('a missing field is missing, not null: it sorts before null and equals only another missing field', () => {
  assert.is(valueOf({ $eq: ['$absent', null] }), false)
  assert.is(valueOf({ $eq: ['$absent', '$alsoAbsent'] }), true)
  assert.is(valueOf({ $eq: ['$nothing', null] }), true)
  assert.is(valueOf({ $ne: ['$absent', 'x'] }), true)
  assert.is(valueOf({ $ne: ['$absent', '$alsoAbsent'] }), false)
  assert.is(valueOf({ $lte: ['$absent', null] }), true)
  assert.is(valueOf({ $gt: ['$nothing', '$absent'] }), true)
  assert.is(valueOf({ $gt: [0, '$nothing'] }), true)
})

Evaluator('$ifNull and arithmetic treat a missing field and null alike', () => {
  assert.is(valueOf({ $ifNull: ['$absent', 1] }), 1)
  assert.is(valueOf({ $ifNull: ['$nothing', 1] }), 1)
  assert.is(valueOf({ $ifNull: ['$count', 1] }), 5)
  assert.is(valueOf({ $add: ['$absent', 1] }), null)
  assert.is(valueOf({ $add: ['$nothing', 1] }), null)
})

Evaluator('$type names a missing field, null, and a number as the driver encodes it (int32 or double)', () => {
  assert.is(valueOf({ $type: '$absent' }), 'missing')
  assert.is(valueOf({ $type: '$nothing' }), 'null')
  assert.is(valueOf({ $type: '$count' }), 'int')
  assert.is(valueOf({ $type: { $literal: 2 ** 31 } }), 'double')
  assert.is(valueOf({ $type: { $literal: 1.5 } }), 'double')
  assert.is(valueOf({ $type: { $literal: -0 } }), 'double')
  assert.is(valueOf({ $type: '$$NOW' }), 'date')
})

Evaluator('a field set to a missing value is left out, as $$REMOVE leaves it out', () => {
  assert.equal(applyPipeline(DOC, 'd', [{ $set: { count: '$absent', nothing: '$$REMOVE' } }], NOW), { _id: 'd' })
})

Evaluator('$cond reads missing, null, false and 0 as false', () => {
  for (const condition of ['$absent', '$nothing', false, 0])
    assert.is(valueOf({ $cond: [condition, 'yes', 'no'] }), 'no', String(condition))
  assert.is(valueOf({ $cond: ['$count', 'yes', 'no'] }), 'yes')
})

Evaluator.run()
