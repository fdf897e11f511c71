import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { aNewPet } from '../support/pet-builder.js'
import { type RunningApi, startApi } from '../support/start-api.js'

const REQUESTS = 5000
const CONNECTIONS = 100

interface Context {
  api: RunningApi
}

const Load = suite<Context>('Bounded load on loopback', {} as Context)

Load.before(async (context) => {
  context.api = await startApi()
})
Load.after(async (context) => {
  await context.api.close()
})

Load(
  `${REQUESTS} mixed requests over ${CONNECTIONS} concurrent clients: no 5xx, no connection error, every created pet fetchable`,
  async ({ api }) => {
    const created = new Map<number, unknown>()
    const statuses = new Map<number, number>()
    const failures: string[] = []
    let sent = 0
    const worker = async (): Promise<void> => {
      while (sent < REQUESTS) {
        const turn = sent++
        const ids = [...created.keys()]
        const kind = turn % 10 < 3 || ids.length === 0 ? 'create' : turn % 10 < 7 ? 'list' : 'get'
        try {
          const response =
            kind === 'create'
              ? await api.request('POST', '/v1/pets', {
                  body: aNewPet({ name: `load ${turn}`, status: ['available', 'pending', 'sold'][turn % 3] }),
                })
              : kind === 'list'
                ? await api.request('GET', `/v1/pets?limit=${1 + (turn % 100)}${turn % 2 === 0 ? '&status=sold' : ''}`)
                : await api.request('GET', `/v1/pets/${ids[turn % ids.length] ?? 1}`)
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          if (kind === 'create' && response.status === 201) created.set((response.body as { id: number }).id, response.body)
        } catch (error) {
          failures.push(`${kind}: ${(error as Error).message}`)
        }
      }
    }
    const started = performance.now()
    await Promise.all(Array.from({ length: CONNECTIONS }, worker))
    const elapsed = performance.now() - started
    console.log(`  load: ${REQUESTS} requests in ${Math.round(elapsed)} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
    assert.equal(failures, [])
    assert.ok(
      [...statuses.keys()].every((status) => status < 500),
      JSON.stringify(Object.fromEntries(statuses)),
    )
    assert.is(
      [...statuses.values()].reduce((sum, n) => sum + n, 0),
      REQUESTS,
    )
    for (const [id, pet] of created) assert.equal((await api.request('GET', `/v1/pets/${id}`)).body, pet)
  },
)

Load.run()
