import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { hitUpdate, type RateLimitDocument, resetMsOf } from '../../adapters/mongodb/mongo-rate-limit-counter.js'
import { applyPipeline } from '../support/pipeline-evaluator.js'

const WINDOW_MS = 60_000
const WINDOW = 29_000_000
const at = (ms: number): Date => new Date(WINDOW * WINDOW_MS + ms)

const hit = (counter: Record<string, unknown> | undefined, serverNow: Date): RateLimitDocument =>
  applyPipeline(counter, 'scope-a', hitUpdate(WINDOW_MS, 0), serverNow) as unknown as RateLimitDocument

const Queries = suite('MongoDB rate-limit documents: windows by the server’s clock')

Queries('the first hit of a scope starts its counter at 1 in the window the server’s clock is in', () => {
  assert.equal(hit(undefined, at(10_000)), { _id: 'scope-a', count: 1, window: WINDOW, at: at(10_000), expiresAt: at(WINDOW_MS) })
})

Queries('a hit in the same window counts up; a hit in a later window starts again at 1', () => {
  const first = hit(undefined, at(10_000))
  const second = hit({ ...first }, at(59_999))
  assert.is(second.count, 2)
  const next = hit({ ...second }, at(WINDOW_MS))
  assert.equal([next.count, next.window, next.expiresAt], [1, WINDOW + 1, at(2 * WINDOW_MS)])
  assert.is(hit({ ...second }, at(5 * WINDOW_MS)).count, 1)
})

Queries('the time left in the window is read from the server’s time of the hit', () => {
  assert.is(resetMsOf(hit(undefined, at(10_000)), WINDOW_MS), 50_000)
  assert.is(resetMsOf(hit(undefined, at(59_999)), WINDOW_MS), 1)
})

Queries('no instance’s time is sent: the update reads $$NOW only', () => {
  assert.not.match(JSON.stringify(hitUpdate(WINDOW_MS, 0)), /\d{4}-\d\d-\d\dT/)
  assert.match(JSON.stringify(hitUpdate(WINDOW_MS, 0)), '"$$NOW"')
})

Queries.run()
