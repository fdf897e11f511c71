import * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { IdempotencyStore, IdempotencyTimes } from '../../src/domain/idempotency-store.js'
import type { Pet } from '../../src/domain/pet.js'

/** One empty store for one test, on a clock the test moves. */
export interface IdempotencyFixture {
  readonly store: IdempotencyStore
  /** Another store over the same records, as another service instance would open it. */
  readonly sibling: () => Promise<IdempotencyStore>
  readonly dispose: () => Promise<void>
}

export type OpenIdempotencyStore = (times: Required<IdempotencyTimes>) => Promise<IdempotencyFixture>

interface Context {
  fixture?: IdempotencyFixture
  clock: { now: number }
}

const TTL_MS = 60_000
const LEASE_MS = 5_000
const PET: Pet = { id: 7, name: 'Rex', categoryId: 1, status: 'sold' }

const run = async <A>(task: TE.TaskEither<unknown, A>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`the store failed: ${JSON.stringify(result.left)}`)
  return result.right
}

/**
 * The IdempotencyStore contract (src/domain/idempotency-store.ts), run once per adapter; every
 * adapter passes every test.
 */
export const idempotencyStoreContract = (adapterName: string, open: OpenIdempotencyStore): void => {
  const contract = suite<Context>(`IdempotencyStore contract: ${adapterName}`, { clock: { now: 0 } })

  contract.before.each(async (context) => {
    context.clock = { now: Date.UTC(2026, 10, 22) }
    const clock = context.clock
    context.fixture = await open({ recordTtlMs: TTL_MS, leaseMs: LEASE_MS, now: () => clock.now })
  })
  contract.after.each(async (context) => {
    await context.fixture?.dispose()
    delete context.fixture
  })

  const storeOf = (context: Context): IdempotencyStore => {
    if (context.fixture === undefined) throw new Error('no store opened')
    return context.fixture.store
  }

  contract('claims a scope nobody holds', async (context) => {
    assert.equal(await run(storeOf(context).claim('client:key-1', 'f1')), { kind: 'claimed' })
  })

  contract('answers in_progress, with the fingerprint, while a claim is neither completed nor released', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client:key-1', 'f1'))
    assert.equal(await run(store.claim('client:key-1', 'f2')), { kind: 'in_progress', fingerprint: 'f1' })
  })

  contract('answers completed with the pet once the claim is completed', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client:key-1', 'f1'))
    await run(store.complete('client:key-1', 'f1', PET))
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'completed', fingerprint: 'f1', pet: PET })
  })

  contract('keeps scopes apart', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client-a:key', 'f1'))
    assert.equal(await run(store.claim('client-b:key', 'f1')), { kind: 'claimed' })
  })

  contract('lets a released claim be claimed again', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client:key-1', 'f1'))
    await run(store.release('client:key-1'))
    assert.equal(await run(store.claim('client:key-1', 'f2')), { kind: 'claimed' })
  })

  contract('lets a claim whose lease ran out be taken over', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client:key-1', 'f1'))
    context.clock.now += LEASE_MS + 1
    assert.equal(await run(store.claim('client:key-1', 'f2')), { kind: 'claimed' })
  })

  contract('remembers a completed record for its lifetime, then forgets it', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client:key-1', 'f1'))
    await run(store.complete('client:key-1', 'f1', PET))
    context.clock.now += TTL_MS - 1
    assert.equal((await run(store.claim('client:key-1', 'f1'))).kind, 'completed')
    context.clock.now += 2
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'claimed' })
  })

  contract('answers exactly one of many concurrent claims from several instances with claimed', async (context) => {
    const fixture = context.fixture
    if (fixture === undefined) throw new Error('no store opened')
    const stores = [fixture.store, await fixture.sibling(), await fixture.sibling()]
    const claims = await Promise.all(Array.from({ length: 30 }, (_, index) => run((stores[index % 3] ?? fixture.store).claim('client:race', 'f1'))))
    assert.is(claims.filter((claim) => claim.kind === 'claimed').length, 1)
    assert.ok(claims.every((claim) => claim.kind === 'claimed' || claim.kind === 'in_progress'))
  })

  contract.run()
}
