import * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { RateLimitCounter } from '../../src/store/rate-limit-counter.js'

/** One empty counter for one test, on a clock the test moves. */
export interface RateLimitFixture {
  readonly counter: RateLimitCounter
  /** Another counter over the same counts, as another service instance would open it. */
  readonly sibling: () => Promise<RateLimitCounter>
  readonly dispose: () => Promise<void>
}

export type OpenRateLimitCounter = (now: () => number) => Promise<RateLimitFixture>

interface Context {
  fixture?: RateLimitFixture
  clock: { now: number }
}

const WINDOW_MS = 60_000
/** Where in its window each test starts. */
const INTO_WINDOW_MS = 10_000
/** A counter on a server's clock sees the test's clock plus the latency of the call. */
const MARGIN_MS = 1_000

const run = async <A>(task: TE.TaskEither<unknown, A>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`the counter failed: ${JSON.stringify(result.left)}`)
  return result.right
}

/**
 * The RateLimitCounter contract (src/store/rate-limit-counter.ts), run once per adapter; every
 * adapter passes every test.
 */
export const rateLimitCounterContract = (adapterName: string, open: OpenRateLimitCounter): void => {
  const contract = suite<Context>(`RateLimitCounter contract: ${adapterName}`, { clock: { now: 0 } })

  contract.before.each(async (context) => {
    // A year ahead, 10 s into a window: MongoDB's TTL monitor (on the real clock) deletes nothing mid-test.
    const yearAhead = Date.now() + 365 * 24 * 60 * 60 * 1000
    context.clock = { now: Math.floor(yearAhead / WINDOW_MS) * WINDOW_MS + INTO_WINDOW_MS }
    const clock = context.clock
    context.fixture = await open(() => clock.now)
  })
  contract.after.each(async (context) => {
    await context.fixture?.dispose()
    delete context.fixture
  })

  const fixtureOf = (context: Context): RateLimitFixture => {
    if (context.fixture === undefined) throw new Error('no counter opened')
    return context.fixture
  }

  contract('counts each hit of a scope in its window, this one included, and says how long the window runs', async (context) => {
    const { counter } = fixtureOf(context)
    const hits = [await run(counter.hit('client-a', WINDOW_MS)), await run(counter.hit('client-a', WINDOW_MS))]
    assert.equal(
      hits.map((hit) => hit.count),
      [1, 2],
    )
    for (const { resetMs } of hits) {
      assert.ok(resetMs > 0 && resetMs <= WINDOW_MS, String(resetMs))
      assert.ok(Math.abs(resetMs - (WINDOW_MS - INTO_WINDOW_MS)) < MARGIN_MS, String(resetMs))
    }
  })

  contract('counts scopes apart', async (context) => {
    const { counter } = fixtureOf(context)
    await run(counter.hit('client-a', WINDOW_MS))
    await run(counter.hit('client-a', WINDOW_MS))
    assert.is((await run(counter.hit('client-b', WINDOW_MS))).count, 1)
  })

  contract('starts again at 1 in the next window', async (context) => {
    const { counter } = fixtureOf(context)
    await run(counter.hit('client-a', WINDOW_MS))
    await run(counter.hit('client-a', WINDOW_MS))
    context.clock.now += WINDOW_MS - INTO_WINDOW_MS - MARGIN_MS
    assert.is((await run(counter.hit('client-a', WINDOW_MS))).count, 3)
    context.clock.now += 2 * MARGIN_MS
    const next = await run(counter.hit('client-a', WINDOW_MS))
    assert.is(next.count, 1)
    assert.ok(Math.abs(next.resetMs - (WINDOW_MS - MARGIN_MS)) < MARGIN_MS, String(next.resetMs))
  })

  contract('answers 1 to n, each once, to n concurrent hits from several instances: one limit across them', async (context) => {
    const fixture = fixtureOf(context)
    const counters = [fixture.counter, await fixture.sibling(), await fixture.sibling()]
    const hits = await Promise.all(
      Array.from({ length: 30 }, (_, index) => run((counters[index % 3] ?? fixture.counter).hit('client-a', WINDOW_MS))),
    )
    assert.equal(
      hits.map((hit) => hit.count).sort((a, b) => a - b),
      Array.from({ length: 30 }, (_, index) => index + 1),
    )
  })

  contract.run()
}
