import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { createPetIdempotently, type IdempotentCreateRequest } from '../../src/domain/create-pet-idempotently.js'
import { aNewPet } from '../support/pet-builder.js'

const LEASE_MS = 1000

const request = (body: unknown = aNewPet()): IdempotentCreateRequest => ({ client: 'client', key: 'key-0001', fingerprint: 'f1', body })

const CreateIdempotently = suite('createPetIdempotently')

CreateIdempotently(
  'a create that outlived its lease while another request took the key over does not answer its pet (issue 13, point 1)',
  async () => {
    let now = 0
    const idempotency = memoryIdempotencyStore({ leaseMs: LEASE_MS, now: () => now })
    const repository = memoryPetRepository()
    // The insert is slow: meanwhile the lease runs out and a retry of the same request claims the key.
    const pets = {
      ...repository,
      insert: (draft: Parameters<typeof repository.insert>[0]) =>
        pipe(
          TE.fromTask(async () => {
            now += LEASE_MS + 1
            return idempotency.claim('client:key-0001', 'f1')()
          }),
          TE.flatMap(() => repository.insert(draft)),
        ),
    }
    const result = await createPetIdempotently({ pets, idempotency })(request())()
    assert.ok(E.isLeft(result) && result.left._tag === 'StoreFailed', JSON.stringify(result))
    // The retry that took the key over holds it: it is not answered with the first request's pet.
    assert.equal(await idempotency.claim('client:key-0001', 'f1')(), E.right({ kind: 'in_progress', fingerprint: 'f1' }))
  },
)

CreateIdempotently.run()
