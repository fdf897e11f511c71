import * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULT_LEASE_MS } from '../../src/domain/idempotency-store.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { DataSetClock, DataSets } from '../../src/store/data-sets.js'
import type { StorePorts } from '../../src/store/store-ports.js'
import { aNewPet } from '../support/pet-builder.js'

/** One store for one test, whose data sets start from `seed`. */
export interface DataSetsFixture {
  readonly space: DataSets
  /** The data sets of the same store, as another service instance would open them. */
  readonly sibling: () => Promise<DataSets>
  readonly dispose: () => Promise<void>
}

export type OpenDataSets = (seed: ReadonlyArray<PetDraft>) => Promise<DataSetsFixture>

interface Context {
  fixture?: DataSetsFixture
}

const SEED: ReadonlyArray<PetDraft> = [
  aNewPet({ name: 'Rex', status: 'available' }),
  aNewPet({ name: 'Zoë', status: 'sold' }),
  aNewPet({ name: 'Kiwi', status: 'pending' }),
]
const DATA_SET_A = 'aaaa0001'
const DATA_SET_B = 'bbbb0002'

const run = async <A>(task: TE.TaskEither<unknown, A>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`the store failed: ${JSON.stringify(result.left)}`)
  return result.right
}

const namesIn = async (ports: StorePorts): Promise<ReadonlyArray<string>> =>
  (await run(ports.pets.list({ limit: 100 }))).map((pet) => `${pet.id} ${pet.name}`)

const SEEDED = ['1 Rex', '2 Zoë', '3 Kiwi']

const DAY_MS = 24 * 60 * 60 * 1000

/** That `clock` reads real time plus `advancedMs`: read between two readings of the real clock, so no millisecond counts. */
const assertReads = (clock: DataSetClock, advancedMs: number, name: string): void => {
  const before = Date.now()
  const time = clock.now()
  const after = Date.now()
  assert.ok(time >= before + advancedMs && time <= after + advancedMs, `${name}: ${time - before} ms from real time, not ${advancedMs}`)
  assert.is(clock.advancedMs(), advancedMs, name)
}

/**
 * The DataSets contract (src/store/data-sets.ts), run once per adapter: isolation, seeding on
 * first use, reset, drop and each data set's clock. The PetRepository and IdempotencyStore contracts also run on a data set's ports.
 */
export const dataSetsContract = (adapterName: string, open: OpenDataSets): void => {
  const contract = suite<Context>(`DataSets contract: ${adapterName}`, {})

  contract.before.each(async (context) => {
    context.fixture = await open(SEED)
  })
  contract.after.each(async (context) => {
    await context.fixture?.dispose()
    delete context.fixture
  })

  const spaceOf = (context: Context): DataSetsFixture => {
    if (context.fixture === undefined) throw new Error('no store opened')
    return context.fixture
  }

  contract('starts a data set from the seed the first time it is opened, with ids 1..n in order', async (context) => {
    const { space } = spaceOf(context)
    const ports = await run(space.open(DATA_SET_A))
    assert.equal(
      await run(ports.pets.list({ limit: 100 })),
      SEED.map((pet, index) => ({ id: index + 1, ...pet })),
    )
  })

  contract('keeps data sets apart: pets of one are invisible in another, and each counts ids on from the seed', async (context) => {
    const { space } = spaceOf(context)
    const a = await run(space.open(DATA_SET_A))
    const b = await run(space.open(DATA_SET_B))
    const inA = await run(a.pets.insert(aNewPet({ name: 'only in A', status: 'sold' })))
    const inB = await run(b.pets.insert(aNewPet({ name: 'only in B', status: 'sold' })))
    assert.is(inA.id, 4)
    assert.is(inB.id, 4)
    assert.equal(await namesIn(a), [...SEEDED, '4 only in A'])
    assert.equal(await namesIn(await run(space.open(DATA_SET_B))), [...SEEDED, '4 only in B'])
    assert.equal(await run(b.pets.list({ limit: 10, status: 'sold', after: 2 })), [inB])
  })

  contract('keeps idempotency records apart', async (context) => {
    const { space } = spaceOf(context)
    const a = await run(space.open(DATA_SET_A))
    const b = await run(space.open(DATA_SET_B))
    assert.is((await run(a.idempotency.claim('client:key', 'f1'))).kind, 'claimed')
    assert.is((await run(b.idempotency.claim('client:key', 'f1'))).kind, 'claimed')
  })

  contract('puts a data set back to its seed on reset: ids start again and idempotency records are gone', async (context) => {
    const { space } = spaceOf(context)
    const before = await run(space.open(DATA_SET_A))
    await run(before.pets.insert(aNewPet({ name: 'gone after reset' })))
    await run(before.idempotency.claim('client:key', 'f1'))
    await run(space.reset(DATA_SET_A))
    const after = await run(space.open(DATA_SET_A))
    assert.equal(await namesIn(after), SEEDED)
    assert.is((await run(after.idempotency.claim('client:key', 'f1'))).kind, 'claimed')
    assert.is((await run(after.pets.insert(aNewPet({ name: 'first again' })))).id, 4)
  })

  contract('leaves every other data set untouched on reset', async (context) => {
    const { space } = spaceOf(context)
    const b = await run(space.open(DATA_SET_B))
    await run(b.pets.insert(aNewPet({ name: 'stays' })))
    await run(space.reset(DATA_SET_A))
    assert.equal(await namesIn(await run(space.open(DATA_SET_B))), [...SEEDED, '4 stays'])
  })

  contract('resets a data set never opened to its seed', async (context) => {
    const { space } = spaceOf(context)
    await run(space.reset(DATA_SET_A))
    assert.equal(await namesIn(await run(space.open(DATA_SET_A))), SEEDED)
  })

  contract('forgets a dropped data set: opened again, it starts from the seed, and every other data set is untouched', async (context) => {
    const { space } = spaceOf(context)
    const a = await run(space.open(DATA_SET_A))
    const b = await run(space.open(DATA_SET_B))
    await run(a.pets.insert(aNewPet({ name: 'gone with A' })))
    await run(a.idempotency.claim('client:key', 'f1'))
    await run(b.pets.insert(aNewPet({ name: 'stays' })))
    await run(space.drop(DATA_SET_A))
    const again = await run(space.open(DATA_SET_A))
    assert.equal(await namesIn(again), SEEDED)
    assert.is((await run(again.idempotency.claim('client:key', 'f1'))).kind, 'claimed')
    assert.equal(await namesIn(await run(space.open(DATA_SET_B))), [...SEEDED, '4 stays'])
  })

  contract('drops a data set never opened without a failure', async (context) => {
    const { space } = spaceOf(context)
    await run(space.drop(DATA_SET_A))
    assert.equal(await namesIn(await run(space.open(DATA_SET_A))), SEEDED)
  })

  contract('lets ports opened before a reset write nothing into the reset data set (a create in flight)', async (context) => {
    const { space } = spaceOf(context)
    const inFlight = await run(space.open(DATA_SET_A))
    await run(space.reset(DATA_SET_A))
    await run(inFlight.idempotency.claim('client:key', 'f1'))
    await run(inFlight.pets.insert(aNewPet({ name: 'in flight' })))
    const after = await run(space.open(DATA_SET_A))
    assert.equal(await namesIn(after), SEEDED)
    assert.is((await run(after.idempotency.claim('client:key', 'f1'))).kind, 'claimed')
  })

  contract("reads real time on a new data set's clock, advanced by nothing", async (context) => {
    const { space } = spaceOf(context)
    assertReads(space.clock(DATA_SET_A), 0, 'never opened')
    await run(space.open(DATA_SET_A))
    assertReads(space.clock(DATA_SET_A), 0, 'opened')
  })

  contract("moves only the advanced data set's clock, by the sum of its advances, and a clock read before follows it", async (context) => {
    const { space } = spaceOf(context)
    const clock = space.clock(DATA_SET_A)
    await run(space.open(DATA_SET_B))
    await run(space.advance(DATA_SET_A, DAY_MS))
    await run(space.advance(DATA_SET_A, 0))
    await run(space.advance(DATA_SET_A, 1))
    assertReads(clock, DAY_MS + 1, 'A')
    assertReads(space.clock(DATA_SET_B), 0, 'B')
  })

  contract("puts a data set's clock back to real time on reset, and leaves every other data set's clock", async (context) => {
    const { space } = spaceOf(context)
    await run(space.advance(DATA_SET_A, DAY_MS))
    await run(space.advance(DATA_SET_B, 2 * DAY_MS))
    await run(space.reset(DATA_SET_A))
    assertReads(space.clock(DATA_SET_A), 0, 'A')
    assertReads(space.clock(DATA_SET_B), 2 * DAY_MS, 'B')
  })

  contract("forgets a dropped data set's clock: opened again, it reads real time", async (context) => {
    const { space } = spaceOf(context)
    await run(space.open(DATA_SET_A))
    await run(space.advance(DATA_SET_A, DAY_MS))
    await run(space.drop(DATA_SET_A))
    await run(space.open(DATA_SET_A))
    assertReads(space.clock(DATA_SET_A), 0, 'A')
  })

  contract(
    "lets a data set's idempotency lease lapse by its clock: advanced past it, a claim is taken over at once, and no other data set's",
    async (context) => {
      const { space } = spaceOf(context)
      const a = await run(space.open(DATA_SET_A))
      const b = await run(space.open(DATA_SET_B))
      for (const ports of [a, b]) await run(ports.idempotency.claim('client:key', 'f1'))
      await run(space.advance(DATA_SET_A, DEFAULT_LEASE_MS + 1000))
      assert.is((await run(a.idempotency.claim('client:key', 'f1'))).kind, 'claimed')
      assert.is((await run(b.idempotency.claim('client:key', 'f1'))).kind, 'in_progress')
    },
  )

  contract('seeds a new data set once when several instances open it together, and shares a reset between them', async (context) => {
    const fixture = spaceOf(context)
    const [first, second, third] = [fixture.space, await fixture.sibling(), await fixture.sibling()]
    const opened = await Promise.all([first, second, third].map((space) => run(space.open(DATA_SET_A))))
    for (const ports of opened) assert.equal(await namesIn(ports), SEEDED)
    await run((await run(first.open(DATA_SET_A))).pets.insert(aNewPet({ name: 'seen by all' })))
    assert.equal(await namesIn(await run(third.open(DATA_SET_A))), [...SEEDED, '4 seen by all'])
    await run(second.reset(DATA_SET_A))
    assert.equal(await namesIn(await run(third.open(DATA_SET_A))), SEEDED)
  })

  contract("shares a data set's clock between instances: one advances it, every other reads it", async (context) => {
    const fixture = spaceOf(context)
    const [first, second] = [fixture.space, await fixture.sibling()]
    await run(first.advance(DATA_SET_A, DAY_MS))
    assertReads(second.clock(DATA_SET_A), DAY_MS, 'the other instance')
  })

  contract.run()
}
