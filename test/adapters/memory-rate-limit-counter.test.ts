import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryRateLimitCounter } from '../../adapters/memory/memory-rate-limit-counter.js'
import type { RateLimitCounter } from '../../src/store/rate-limit-counter.js'
import { rateLimitCounterContract } from '../ports/rate-limit-counter.contract.js'

rateLimitCounterContract('memory', async (now) => {
  const counter = memoryRateLimitCounter({ clockOf: () => ({ now }) })
  // One process holds one memory counter: another "instance" in the same process shares it.
  return { counter, sibling: async () => counter, dispose: async () => undefined }
})

const WINDOW_MS = 60_000

const countOf = async (counter: RateLimitCounter, scope: string): Promise<number> => {
  const hit = await counter.hit(scope, WINDOW_MS)()
  if (E.isLeft(hit)) throw new Error('the memory counter failed')
  return hit.right.count
}

const Clocks = suite('memoryRateLimitCounter, a clock per scope')

Clocks("counts each scope in the windows of its own clock: moving one scope's clock starts only its count again", async () => {
  const clocks = new Map([
    ['sandbox-a', 10_000],
    ['sandbox-b', 10_000],
  ])
  const counter = memoryRateLimitCounter({ clockOf: (scope) => ({ now: () => clocks.get(scope) ?? 0 }) })
  for (const scope of ['sandbox-a', 'sandbox-b']) await countOf(counter, scope)
  clocks.set('sandbox-a', 10_000 + WINDOW_MS)
  assert.equal([await countOf(counter, 'sandbox-a'), await countOf(counter, 'sandbox-b')], [1, 2])
})

Clocks('forgets the counts of windows that have ended, by each scope’s clock: memory stays bounded as clients come and go', async () => {
  let now = 10_000
  const counter = memoryRateLimitCounter({ clockOf: () => ({ now: () => now }) })
  for (let window = 0; window < 10; window += 1) {
    for (let client = 0; client < 500; client += 1) await countOf(counter, `window-${window}-client-${client}`)
    now += WINDOW_MS
  }
  // Each window's 500 clients, and at most as many again of ended windows awaiting the next sweep.
  assert.ok(counter.size() <= 1000, String(counter.size()))
})

Clocks.run()
