import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openMongoStore } from '../../adapters/mongodb/mongo-store.js'
import { aNewPet } from '../support/pet-builder.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31))
const RUNS = 300

interface Context {
  api: RunningApi
  close: () => Promise<void>
}

const request = fc.oneof(
  fc.record({
    method: fc.constant('GET'),
    path: fc.constantFrom(
      '/v1/pets',
      '/v1/pets?limit=5',
      '/v1/pets?status=sold',
      '/v1/pets?limit=0',
      '/v1/pets/1',
      '/v1/pets/abc',
      '/v1/pets/-1',
      '/readyz',
      '/v1/nowhere',
    ),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/v1/pets'),
    body: fc.oneof(
      fc.constant(JSON.stringify(aNewPet())),
      fc.string({ maxLength: 20 }),
      fc.jsonValue({ maxDepth: 1 }).map((value) => JSON.stringify(value) ?? ''),
    ),
  }),
)

const Unreachable = suite<Context>('Generated requests with the database unreachable', {} as Context)

Unreachable.before(async (context) => {
  // Port 1 on loopback: nothing listens, as when the database is down.
  const store = openMongoStore({
    uri: 'mongodb://127.0.0.1:1/petstore',
    dbName: 'petstore',
    timeoutMs: 200,
    writeConcern: { w: 'majority' },
  })
  context.api = await startApi({ store })
  context.close = store.close
})
Unreachable.after(async (context) => {
  await context.api.close()
  await context.close()
})

Unreachable('every answer is a valid Error: 503 where the store is needed, the 4xx the request deserves otherwise', async ({ api }) => {
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(request, fc.boolean(), async (generated, withKey) => {
      const body = 'body' in generated ? generated.body : undefined
      const response = await api.request(generated.method, generated.path, {
        key: withKey ? TEST_KEY : false,
        ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
      })
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      assert.ok([400, 401, 404, 503].includes(response.status), `${generated.method} ${generated.path}: ${response.status}`)
    }),
    { seed: SEED, numRuns: RUNS },
  )
  console.log(`  unreachable store: ${RUNS} requests (seed ${SEED}), statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
  assert.ok((statuses.get(503) ?? 0) > 0)
})

Unreachable.run()
