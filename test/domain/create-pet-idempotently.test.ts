import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { createPet } from '../../src/domain/create-pet.js'
import type { IdempotencyKey } from '../../src/domain/create-pet-idempotently.js'
import type { Pet } from '../../src/domain/pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { aNewPet } from '../support/pet-builder.js'
import { spiedIdempotency } from '../support/spied-idempotency.js'

const LEASE_MS = 1000

/** createPet's arguments: a body, and the key it is sent with. */
const request = (body: unknown = aNewPet(), fingerprint = 'f1'): [unknown, IdempotencyKey] => [
  body,
  { client: 'client', key: 'key-0001', fingerprint },
]

const CreateIdempotently = suite('createPet with an idempotency key')

CreateIdempotently(
  'a create that outlived its lease while a retry took the key over answers the pet the key answers, stored once',
  async () => {
    let now = 0
    const idempotency = memoryIdempotencyStore({ leaseMs: LEASE_MS, clock: { now: () => now } })
    const repository = memoryPetRepository()
    let retried: E.Either<unknown, Pet> | undefined
    // The first insert is slow: meanwhile the lease runs out and a retry of the same request takes the key over and finishes.
    const slow: PetRepository = {
      ...repository,
      insert: (draft, createId) =>
        pipe(
          TE.fromTask(async () => {
            now += LEASE_MS + 1
            retried = await createPet({ pets: repository, idempotency })(...request())()
          }),
          TE.flatMap(() => repository.insert(draft, createId)),
        ),
    }
    const first = await createPet({ pets: slow, idempotency })(...request())()
    assert.ok(retried !== undefined && E.isRight(retried), JSON.stringify(retried))
    assert.equal(first, retried)
    assert.equal(await repository.list({ limit: 10 })(), E.right([retried.right]))
    assert.equal(await idempotency.claim('client:key-0001', 'f1')(), E.right({ kind: 'completed', fingerprint: 'f1', pet: retried.right }))
  },
)

/** A repository that stores the pet and then loses the answer: the insert fails though the pet exists. */
const answerLost = (repository: PetRepository): PetRepository => ({
  ...repository,
  insert: (...args) =>
    pipe(
      repository.insert(...args),
      TE.flatMap(() => TE.left({ _tag: 'StoreUnavailable', detail: 'insert pet: no answer within 4000 ms' } as const)),
    ),
})

CreateIdempotently(
  'a failed insert ends the lease: the retry with the same body at once answers the pet it stored, never a second',
  async () => {
    const idempotency = memoryIdempotencyStore({ leaseMs: LEASE_MS, clock: { now: () => 0 } })
    const repository = memoryPetRepository()
    const failed = await createPet({ pets: answerLost(repository), idempotency })(...request())()
    assert.equal(failed, E.left({ _tag: 'StoreUnavailable', detail: 'insert pet: no answer within 4000 ms' }))
    const retry = createPet({ pets: repository, idempotency })(...request())
    const answered = await retry()
    assert.ok(E.isRight(answered), JSON.stringify(answered))
    assert.equal(await repository.list({ limit: 10 })(), E.right([answered.right]))
    assert.equal(await retry(), answered)
  },
)

CreateIdempotently('a failed insert that stored nothing ends the lease: the retry with the same body at once creates the pet', async () => {
  const idempotency = memoryIdempotencyStore({ leaseMs: LEASE_MS, clock: { now: () => 0 } })
  const repository = memoryPetRepository()
  const refused = { ...repository, insert: () => TE.left({ _tag: 'StoreFailed', detail: 'insert pet: not authorized' } as const) }
  assert.equal(
    await createPet({ pets: refused, idempotency })(...request())(),
    E.left({ _tag: 'StoreFailed', detail: 'insert pet: not authorized' }),
  )
  const answered = await createPet({ pets: repository, idempotency })(...request())()
  assert.ok(E.isRight(answered), JSON.stringify(answered))
  assert.equal(await repository.list({ limit: 10 })(), E.right([answered.right]))
})

CreateIdempotently('after a failed insert, another body with the key is a mismatch, never the first body’s pet', async () => {
  const idempotency = memoryIdempotencyStore({ leaseMs: LEASE_MS, clock: { now: () => 0 } })
  const repository = memoryPetRepository()
  await createPet({ pets: answerLost(repository), idempotency })(...request(aNewPet({ name: 'Alpha' })))()
  const other = request(aNewPet({ name: 'Beta' }), 'f2')
  assert.equal(await createPet({ pets: repository, idempotency })(...other)(), E.left({ _tag: 'IdempotencyKeyMismatch' }))
  const retry = await createPet({ pets: repository, idempotency })(...request(aNewPet({ name: 'Alpha' })))()
  assert.ok(E.isRight(retry) && retry.right.name === 'Alpha', JSON.stringify(retry))
  const stored = await repository.list({ limit: 10 })()
  assert.ok(E.isRight(stored) && stored.right.length === 1, JSON.stringify(stored))
})

CreateIdempotently(
  'a create whose completion failed ends the lease: the retry at once answers the pet it stored, never a second',
  async () => {
    const idempotency = memoryIdempotencyStore({ leaseMs: LEASE_MS, clock: { now: () => 0 } })
    const repository = memoryPetRepository()
    const unrecorded = {
      ...idempotency,
      complete: () => TE.left({ _tag: 'StoreUnavailable', detail: 'complete idempotency key: timeout' } as const),
    }
    assert.equal(
      await createPet({ pets: repository, idempotency: unrecorded })(...request())(),
      E.left({ _tag: 'StoreUnavailable', detail: 'complete idempotency key: timeout' }),
    )
    const answered = await createPet({ pets: repository, idempotency })(...request())()
    assert.ok(E.isRight(answered), JSON.stringify(answered))
    assert.equal(await repository.list({ limit: 10 })(), E.right([answered.right]))
  },
)

CreateIdempotently('an invalid body is refused with InvalidPet before any key is claimed', async () => {
  const spy = spiedIdempotency()
  const result = await createPet({ pets: memoryPetRepository(), idempotency: spy.store })(...request(aNewPet({ name: '' })))()
  assert.equal(result, E.left({ _tag: 'InvalidPet', problems: ['name: must not be empty'] }))
  assert.equal(spy.calls, [])
})

CreateIdempotently('a key of the wrong syntax is refused with InvalidParameter before the body is read, and touches no store', async () => {
  const spy = spiedIdempotency()
  const pets = memoryPetRepository()
  const result = await createPet({ pets, idempotency: spy.store })(aNewPet({ name: '' }), {
    client: 'client',
    key: 'has space',
    fingerprint: 'f1',
  })()
  assert.equal(result, E.left({ _tag: 'InvalidParameter', problems: ['Idempotency-Key: must be 1 to 255 visible ASCII characters'] }))
  assert.equal(spy.calls, [])
  assert.equal(await pets.list({ limit: 10 })(), E.right([]))
})

CreateIdempotently('a store failure ends the key’s lease, and the failure answered is the create’s', async () => {
  const spy = spiedIdempotency()
  const down = { ...memoryPetRepository(), insert: () => TE.left({ _tag: 'StoreUnavailable', detail: 'insert pet: timeout' } as const) }
  const result = await createPet({ pets: down, idempotency: spy.store })(...request())()
  assert.equal(result, E.left({ _tag: 'StoreUnavailable', detail: 'insert pet: timeout' }))
  assert.equal(spy.calls, ['claim client:key-0001', 'endLease'])
  const retry = await spy.store.claim('client:key-0001', 'f1')()
  assert.ok(E.isRight(retry) && retry.right.kind === 'claimed', JSON.stringify(retry))
})

CreateIdempotently(
  'when the lease cannot be ended either, the key stays in use until its lease runs out, and the log detail says so',
  async () => {
    let now = 0
    const idempotency = memoryIdempotencyStore({ leaseMs: LEASE_MS, clock: { now: () => now } })
    const stuck = {
      ...idempotency,
      endLease: () => TE.left({ _tag: 'StoreUnavailable', detail: 'end idempotency lease: timeout' } as const),
    }
    const down = { ...memoryPetRepository(), insert: () => TE.left({ _tag: 'StoreFailed', detail: 'insert pet: not authorized' } as const) }
    const result = await createPet({ pets: down, idempotency: stuck })(...request())()
    assert.equal(
      result,
      E.left({
        _tag: 'StoreFailed',
        detail:
          "insert pet: not authorized; ending the idempotency key's lease failed too, so it stays in use until its lease ends: end idempotency lease: timeout",
      }),
    )
    const retry = createPet({ pets: memoryPetRepository(), idempotency })(...request())
    assert.equal(await retry(), E.left({ _tag: 'IdempotencyKeyInUse' }))
    now += LEASE_MS
    assert.is((await retry())._tag, 'Right')
  },
)

CreateIdempotently.run()
