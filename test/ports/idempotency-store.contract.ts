import * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { IdempotencyClaim, IdempotencyStore, IdempotencyTimes } from '../../src/domain/idempotency-store.js'
import { aPet } from '../support/pet-builder.js'

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
/**
 * How far each test moves the clock past a boundary. A store on a server's clock sees the test's
 * clock plus the time the test has run, so no test relies on a millisecond.
 */
const MARGIN_MS = 1_000
const PET = aPet({ id: 7 })

type Claimed = Extract<IdempotencyClaim, { kind: 'claimed' }>

const claimed = async (store: IdempotencyStore, scope: string, fingerprint: string): Promise<Claimed> => {
  const claim = await run(store.claim(scope, fingerprint))
  if (claim.kind !== 'claimed') throw new Error(`expected to claim ${scope}, got ${claim.kind}`)
  return claim
}

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
    // A year ahead of the real clock, so that MongoDB's TTL monitor (which reads the real clock)
    // never deletes a record while a test is still looking at it.
    context.clock = { now: Date.now() + 365 * 24 * 60 * 60 * 1000 }
    const clock = context.clock
    context.fixture = await open({ recordTtlMs: TTL_MS, leaseMs: LEASE_MS, clock: { now: () => clock.now } })
  })
  contract.after.each(async (context) => {
    await context.fixture?.dispose()
    delete context.fixture
  })

  const storeOf = (context: Context): IdempotencyStore => {
    if (context.fixture === undefined) throw new Error('no store opened')
    return context.fixture.store
  }

  contract('claims a scope nobody holds, with a token of its own', async (context) => {
    const store = storeOf(context)
    const first = await claimed(store, 'client:key-1', 'f1')
    const second = await claimed(store, 'client:key-2', 'f1')
    assert.type(first.token, 'string')
    assert.is.not(first.token, second.token)
  })

  contract('answers in_progress, with the fingerprint, while a claim is neither completed nor its lease over', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client:key-1', 'f1'))
    assert.equal(await run(store.claim('client:key-1', 'f2')), { kind: 'in_progress', fingerprint: 'f1' })
  })

  contract('answers completed with the pet once the claim is completed', async (context) => {
    const store = storeOf(context)
    const claim = await claimed(store, 'client:key-1', 'f1')
    await run(store.complete('client:key-1', claim.createId, 'f1', PET))
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'completed', fingerprint: 'f1', pet: PET })
  })

  contract('a task does its work when it is run, and none when it is made', async (context) => {
    const store = storeOf(context)
    const made = store.claim('client:key-1', 'f1')
    assert.is((await run(store.claim('client:key-1', 'f2'))).kind, 'claimed')
    assert.equal(await run(made), { kind: 'in_progress', fingerprint: 'f2' })
  })

  contract('keeps scopes apart', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client-a:key', 'f1'))
    assert.is((await run(store.claim('client-b:key', 'f1'))).kind, 'claimed')
  })

  contract('lets the same body take over at once a claim whose holder ended its lease, with its create id', async (context) => {
    const store = storeOf(context)
    const first = await run(store.claim('client:key-1', 'f1'))
    if (first.kind !== 'claimed') throw new Error('expected to claim')
    await run(store.endLease('client:key-1', first.token))
    const retry = await run(store.claim('client:key-1', 'f1'))
    assert.ok(retry.kind === 'claimed' && retry.token !== first.token, JSON.stringify(retry))
    assert.is(retry.kind === 'claimed' ? retry.createId : '', first.createId)
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'in_progress', fingerprint: 'f1' })
  })

  contract('never lets another body take over a claim whose holder ended its lease, until the record expires', async (context) => {
    const store = storeOf(context)
    await run(store.endLease('client:key-1', (await claimed(store, 'client:key-1', 'f1')).token))
    assert.equal(await run(store.claim('client:key-1', 'f2')), { kind: 'in_progress', fingerprint: 'f1' })
    context.clock.now += TTL_MS + MARGIN_MS
    assert.is((await run(store.claim('client:key-1', 'f2'))).kind, 'claimed')
  })

  contract('ends a lease only for the token that holds the claim', async (context) => {
    const store = storeOf(context)
    await claimed(store, 'client:key-1', 'f1')
    await run(store.endLease('client:key-1', 'not-the-holder'))
    await run(store.endLease('client:key-2', 'not-the-holder'))
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'in_progress', fingerprint: 'f1' })
    assert.is((await run(store.claim('client:key-2', 'f1'))).kind, 'claimed')
  })

  contract('lets a claim whose lease ran out be taken over by the same body', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client:key-1', 'f1'))
    context.clock.now += LEASE_MS - MARGIN_MS
    assert.is((await run(store.claim('client:key-1', 'f1'))).kind, 'in_progress')
    context.clock.now += 2 * MARGIN_MS
    assert.is((await run(store.claim('client:key-1', 'f1'))).kind, 'claimed')
  })

  contract('never lets another body take over a lapsed claim, until the record expires', async (context) => {
    const store = storeOf(context)
    await run(store.claim('client:key-1', 'f1'))
    context.clock.now += LEASE_MS + MARGIN_MS
    assert.equal(await run(store.claim('client:key-1', 'f2')), { kind: 'in_progress', fingerprint: 'f1' })
    context.clock.now += TTL_MS
    assert.is((await run(store.claim('client:key-1', 'f2'))).kind, 'claimed')
  })

  contract('gives a claim that takes over a lapsed lease the create id of the claim it took over', async (context) => {
    const store = storeOf(context)
    const first = await run(store.claim('client:key-1', 'f1'))
    context.clock.now += LEASE_MS + MARGIN_MS
    const takeover = await run(store.claim('client:key-1', 'f1'))
    assert.ok(first.kind === 'claimed' && takeover.kind === 'claimed')
    assert.is.not(takeover.token, first.token)
    assert.is(takeover.createId, first.createId)
  })

  contract('gives a claim of a forgotten scope, or of another scope, a create id of its own', async (context) => {
    const store = storeOf(context)
    const first = await run(store.claim('client:key-1', 'f1'))
    if (first.kind !== 'claimed') throw new Error('expected to claim')
    await run(store.complete('client:key-1', first.createId, 'f1', PET))
    context.clock.now += TTL_MS + MARGIN_MS
    const afterExpiry = await run(store.claim('client:key-1', 'f1'))
    assert.ok(afterExpiry.kind === 'claimed' && afterExpiry.createId !== first.createId)
    const other = await run(store.claim('client:key-2', 'f1'))
    assert.ok(other.kind === 'claimed' && afterExpiry.kind === 'claimed' && other.createId !== afterExpiry.createId)
  })

  contract("lets a holder whose claim was taken over record its create id's pet, but not end the new holder's lease", async (context) => {
    const store = storeOf(context)
    const late = await claimed(store, 'client:key-1', 'f1')
    context.clock.now += LEASE_MS + MARGIN_MS
    const current = await claimed(store, 'client:key-1', 'f1')
    await run(store.endLease('client:key-1', late.token))
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'in_progress', fingerprint: 'f1' })
    // Both inserted under the same create id, so the pet is the same one, recorded by whoever comes first.
    await run(store.complete('client:key-1', late.createId, 'f1', PET))
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'completed', fingerprint: 'f1', pet: PET })
    await run(store.endLease('client:key-1', current.token))
    await run(store.complete('client:key-1', late.createId, 'f1', PET))
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'completed', fingerprint: 'f1', pet: PET })
  })

  contract('fails a completion whose record expired and was claimed afresh with StoreFailed, naming the pet', async (context) => {
    const store = storeOf(context)
    const expired = await claimed(store, 'client:key-1', 'f1')
    context.clock.now += TTL_MS + MARGIN_MS
    await claimed(store, 'client:key-1', 'f1')
    const completed = await store.complete('client:key-1', expired.createId, 'f1', PET)()
    assert.ok(E.isLeft(completed) && completed.left._tag === 'StoreFailed', JSON.stringify(completed))
    assert.match(E.isLeft(completed) ? completed.left.detail : '', 'pet 7')
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'in_progress', fingerprint: 'f1' })
  })

  contract('leaves a completed record as it is when its holder ends its lease', async (context) => {
    const store = storeOf(context)
    const claim = await claimed(store, 'client:key-1', 'f1')
    await run(store.complete('client:key-1', claim.createId, 'f1', PET))
    await run(store.endLease('client:key-1', claim.token))
    assert.equal(await run(store.claim('client:key-1', 'f1')), { kind: 'completed', fingerprint: 'f1', pet: PET })
    assert.equal(await run(store.claim('client:key-1', 'f2')), { kind: 'completed', fingerprint: 'f1', pet: PET })
  })

  contract('remembers a completed record for its lifetime, then forgets it', async (context) => {
    const store = storeOf(context)
    const claim = await claimed(store, 'client:key-1', 'f1')
    await run(store.complete('client:key-1', claim.createId, 'f1', PET))
    context.clock.now += TTL_MS - MARGIN_MS
    assert.equal((await run(store.claim('client:key-1', 'f1'))).kind, 'completed')
    context.clock.now += 2 * MARGIN_MS
    assert.is((await run(store.claim('client:key-1', 'f1'))).kind, 'claimed')
  })

  contract('answers exactly one of many concurrent claims from several instances with claimed', async (context) => {
    const fixture = context.fixture
    if (fixture === undefined) throw new Error('no store opened')
    const stores = [fixture.store, await fixture.sibling(), await fixture.sibling()]
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, index) => run((stores[index % 3] ?? fixture.store).claim('client:race', 'f1'))),
    )
    assert.is(claims.filter((claim) => claim.kind === 'claimed').length, 1)
    assert.ok(claims.every((claim) => claim.kind === 'claimed' || claim.kind === 'in_progress'))
  })

  contract.run()
}
