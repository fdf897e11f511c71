import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cursorCodec } from '../../adapters/http/cursor.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { DEMO_PETS } from '../../src/main/seed/demo-pets.js'
import { decodeSeed } from '../../src/main/seed/read-seed.js'
import { apiSuite } from '../support/api-suite.js'
import { aPet } from '../support/pet-builder.js'
import { startApi } from '../support/start-api.js'

const demo = (() => {
  const seed = decodeSeed('demo', DEMO_PETS)
  if (E.isLeft(seed)) throw new Error(seed.left.join('; '))
  return seed.right.pets
})()

const Demo = apiSuite('PETSTORE_SEED=demo', () => ({ pets: memoryPetRepository(demo) }))

Demo('The demo seed shows paging, every status and names beyond ASCII without creating anything', async ({ api }) => {
  const first = await api.request('GET', '/v1/pets')
  const pets = first.body as ReadonlyArray<{ id: number; name: string }>
  assert.equal(
    pets.map((pet) => pet.id),
    Array.from({ length: 20 }, (_, index) => index + 1),
  )
  assert.match(first.headers.get('link') ?? '', /rel="next"$/)
  for (const status of ['available', 'pending', 'sold']) {
    const filtered = (await api.request('GET', `/v1/pets?status=${status}&limit=100`)).body as ReadonlyArray<{ status: string }>
    assert.ok(filtered.length > 0 && filtered.every((pet) => pet.status === status), status)
  }
  assert.equal((await api.request('GET', '/v1/pets/6')).body, aPet({ id: 6, name: 'Zoë', categoryId: 2, status: 'pending' }))
})

Demo.run()

const Identical = suite('PETSTORE_SEED on two fresh instances')

Identical('The same seed on two fresh instances gives byte-identical list bodies and Link headers', async () => {
  const secret = 'fixed-cursor-secret-0123456789'
  const instances = await Promise.all([0, 1].map(() => startApi({ pets: memoryPetRepository(demo), cursors: cursorCodec(secret) })))
  try {
    const walks = await Promise.all(
      instances.map(async (api) => {
        const pages: string[] = []
        for (let path: string | undefined = '/v1/pets?limit=7'; path !== undefined;) {
          const page = await api.request('GET', path)
          const link = page.headers.get('link')
          pages.push(`${page.text}\n${link ?? ''}`)
          path = /^<([^>]+)>/.exec(link ?? '')?.[1]
        }
        return pages
      }),
    )
    assert.is(walks[0]?.length, Math.ceil(DEMO_PETS.length / 7))
    assert.equal(walks[0], walks[1])
  } finally {
    await Promise.all(instances.map((api) => api.close()))
  }
})

Identical.run()
