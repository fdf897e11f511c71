import * as assert from 'uvu/assert'
import { aNewPet } from '../support/pet-builder.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import type { RunningApi } from '../support/start-api.js'

interface PetBody {
  readonly id: number
  readonly status: string
}

const STATUSES = ['available', 'pending', 'sold']

const createPets = async (api: RunningApi, count: number, statusOf = (index: number) => STATUSES[index % 3]): Promise<void> => {
  for (let index = 0; index < count; index += 1) {
    await api.request('POST', '/v1/pets', { body: aNewPet({ name: `pet ${index}`, status: statusOf(index) }) })
  }
}

const nextLink = (link: string | null): string | undefined => /^<([^>]+)>; rel="next"$/.exec(link ?? '')?.[1]

/** Follows `next` links from `path`, optionally creating a pet before each further page. */
const walk = async (api: RunningApi, path: string, between: () => Promise<void> = async () => undefined): Promise<PetBody[]> => {
  const seen: PetBody[] = []
  let next: string | undefined = path
  while (next !== undefined) {
    const response = await api.request('GET', next)
    assert.is(response.status, 200)
    seen.push(...(response.body as PetBody[]))
    next = nextLink(response.headers.get('link'))
    if (next !== undefined) await between()
  }
  return seen
}

const ListPets = apiSuite('GET /v1/pets')

ListPets('When the store is empty, then 200 returns a bare empty array', async ({ api }) => {
  const response = await api.request('GET', '/v1/pets')
  assert.is(response.status, 200)
  assert.equal(response.body, [])
  assert.is(response.headers.get('link'), null)
  assert.is(response.headers.get('cache-control'), 'private, no-cache')
})

ListPets('When limit is omitted, then at most 20 animals are returned', async ({ api }) => {
  await createPets(api, 25)
  assert.is(((await api.request('GET', '/v1/pets')).body as PetBody[]).length, 20)
})

ListPets('When limit is given, then at most that many animals are returned', async ({ api }) => {
  await createPets(api, 5)
  assert.is(((await api.request('GET', '/v1/pets?limit=3')).body as PetBody[]).length, 3)
  assert.is(((await api.request('GET', '/v1/pets?limit=100')).body as PetBody[]).length, 5)
  assert.is(((await api.request('GET', '/v1/pets?limit=1')).body as PetBody[]).length, 1)
})

ListPets('When status is given, then every returned animal has that status', async ({ api }) => {
  await createPets(api, 9)
  for (const status of STATUSES) {
    const pets = (await api.request('GET', `/v1/pets?status=${status}`)).body as PetBody[]
    assert.is(pets.length, 3)
    assert.ok(pets.every((pet) => pet.status === status))
  }
})

ListPets('When pets are listed, then they come in ascending id order', async ({ api }) => {
  await createPets(api, 6)
  assert.equal(
    ((await api.request('GET', '/v1/pets')).body as PetBody[]).map((pet) => pet.id),
    [1, 2, 3, 4, 5, 6],
  )
})

ListPets('When limit is out of range, not an integer, empty or repeated, then 400 names limit', async ({ api }) => {
  for (const query of ['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'limit=', 'limit=2.5', 'limit=+5', 'limit=05', 'limit=1&limit=2']) {
    assert.match(assertError(await api.request('GET', `/v1/pets?${query}`), 400, 'invalid_parameter'), /^limit: /, query)
  }
})

ListPets('When status is not one of the enumeration, empty or repeated, then 400 names status', async ({ api }) => {
  for (const query of ['status=lost', 'status=', 'status=Sold', 'status=sold&status=pending']) {
    assert.match(assertError(await api.request('GET', `/v1/pets?${query}`), 400, 'invalid_parameter'), /^status: /, query)
  }
})

ListPets('When an unknown or operator-shaped parameter is given, then 400 names it', async ({ api }) => {
  for (const [query, name] of [
    ['offset=20', 'offset'],
    ['page=2', 'page'],
    ['status[$ne]=sold', 'status[$ne]'],
  ]) {
    assert.match(assertError(await api.request('GET', `/v1/pets?${query}`), 400, 'invalid_parameter'), `${name}: is not a parameter`, query)
  }
})

ListPets('When several parameters are wrong, then 400 names every one of them', async ({ api }) => {
  const message = assertError(await api.request('GET', '/v1/pets?limit=x&status=lost&page=2'), 400, 'invalid_parameter')
  for (const name of ['limit: ', 'status: ', 'page: ']) assert.match(message, name)
})

ListPets('When more pets match than the limit, then a Link rel=next keeps limit and status; the last page has none', async ({ api }) => {
  await createPets(api, 7, () => 'sold')
  const first = await api.request('GET', '/v1/pets?limit=3&status=sold')
  const next = nextLink(first.headers.get('link'))
  assert.match(next ?? '', /^\/v1\/pets\?limit=3&status=sold&after=[^&]+$/)
  const exact = await api.request('GET', '/v1/pets?limit=7')
  assert.is(exact.headers.get('link'), null)
})

ListPets('When next links are walked, then every pet is seen exactly once in id order', async ({ api }) => {
  await createPets(api, 250)
  const seen = await walk(api, '/v1/pets?limit=7')
  assert.equal(
    seen.map((pet) => pet.id),
    Array.from({ length: 250 }, (_, index) => index + 1),
  )
})

ListPets(
  'When next links are walked with a status filter while pets are created, then each pet that existed is seen exactly once',
  async ({ api }) => {
    await createPets(api, 300)
    const existing = Array.from({ length: 300 }, (_, index) => index + 1).filter((id) => (id - 1) % 3 === 1)
    const seen = await walk(api, '/v1/pets?limit=9&status=pending', () => createPets(api, 2, () => 'pending'))
    const ids = seen.map((pet) => pet.id)
    assert.is(new Set(ids).size, ids.length, 'no pet twice')
    assert.equal(
      ids,
      [...ids].sort((a, b) => a - b),
      'in id order',
    )
    assert.ok(seen.every((pet) => pet.status === 'pending'))
    assert.equal(
      ids.filter((id) => id <= 300),
      existing,
    )
  },
)

ListPets('When the cursor is malformed or tampered, then 400 names after', async ({ api }) => {
  await createPets(api, 3)
  const cursor =
    new URL(nextLink((await api.request('GET', '/v1/pets?limit=1')).headers.get('link')) ?? '', 'http://x').searchParams.get('after') ?? ''
  const tampered = `2${cursor.slice(1)}`
  for (const after of ['garbage', '', tampered, `${cursor}A`]) {
    assert.match(
      assertError(await api.request('GET', `/v1/pets?after=${encodeURIComponent(after)}`), 400, 'invalid_parameter'),
      /^after: /,
      after,
    )
  }
})

ListPets.run()
