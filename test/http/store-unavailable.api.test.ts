import { createServer, type Server } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openMongoStore } from '../../adapters/mongodb/mongo-store.js'
import { apiSuite, assertError } from '../support/api-suite.js'
import { aNewPet } from '../support/pet-builder.js'
import type { ApiResponse } from '../support/start-api.js'

/** The store's bound on each round trip: short, since every request here waits for it. */
const TIMEOUT_MS = 250
/**
 * The bound asserted per request: no request may wait for the driver's own timeouts (30 s to select
 * a server, as without the service's bound). Forty times the store's timeout, so that a busy
 * machine, which stretches every request, never reaches it.
 */
const BOUND_MS = 40 * TIMEOUT_MS

// Port 1 on loopback: nothing listens there, as when the database is down.
const store = openMongoStore({
  uri: 'mongodb://127.0.0.1:1/petstore',
  dbName: 'petstore',
  timeoutMs: TIMEOUT_MS,
  writeConcern: { w: 'majority' },
})

const timed = async (request: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; elapsedMs: number }> => {
  const started = performance.now()
  const response = await request()
  return { response, elapsedMs: performance.now() - started }
}

const Unreachable = apiSuite('PETSTORE_STORE=mongodb with the database unreachable', { store })

Unreachable.after(async () => {
  await store.close()
})

Unreachable(
  'When the database cannot be reached, then /readyz and /v1/pets answer 503 with Retry-After within the bound, every time',
  async ({ api }) => {
    for (let round = 0; round < 3; round += 1) {
      for (const [method, path, body] of [
        ['GET', '/readyz', undefined],
        ['GET', '/v1/pets', undefined],
        ['POST', '/v1/pets', aNewPet()],
        ['GET', '/v1/pets/1', undefined],
      ] as const) {
        const { response, elapsedMs } = await timed(() => api.request(method, path, body === undefined ? {} : { body }))
        assertError(response, 503, 'service_unavailable')
        assert.is(response.headers.get('retry-after'), '5')
        assert.ok(elapsedMs < BOUND_MS, `${method} ${path} took ${Math.round(elapsedMs)} ms`)
      }
    }
  },
)

Unreachable('When the database cannot be reached, then the process stays alive and /healthz still answers', async ({ api }) => {
  await api.request('GET', '/v1/pets')
  const response = await api.request('GET', '/healthz', { key: false })
  assert.is(response.status, 200)
  assert.equal(response.body, { status: 'alive' })
})

Unreachable.run()

interface ListenerContext {
  listener: Server
  port: number
  attempts: number
}

const Reconnect = suite<ListenerContext>('MongoDB connection attempts after a failure', {} as ListenerContext)

Reconnect.before(async (context) => {
  context.attempts = 0
  // A "database" that accepts TCP connections and drops them at once: every attempt is counted.
  context.listener = createServer((socket) => {
    context.attempts += 1
    socket.destroy()
  })
  await new Promise<void>((resolve) => context.listener.listen(0, '127.0.0.1', resolve))
  const address = context.listener.address()
  context.port = typeof address === 'object' && address !== null ? address.port : 0
})
Reconnect.after(async (context) => {
  await new Promise((resolve) => context.listener.close(resolve))
})

Reconnect(
  'When the first connect fails, then later requests try to reach the database again (so it recovers when it is back)',
  async (context) => {
    const down = openMongoStore({
      uri: `mongodb://127.0.0.1:${context.port}/petstore`,
      dbName: 'petstore',
      timeoutMs: 300,
      writeConcern: { w: 'majority' },
    })
    try {
      assert.is((await down.shared.pets.list({ limit: 1 })())._tag, 'Left')
      const afterFirst = context.attempts
      assert.ok(afterFirst > 0, 'the first request tried to connect')
      // A request made while the failing connect is still being given up shares it; a later one
      // tries afresh. However slow the machine, one of the next few does.
      for (let request = 0; request < 5 && context.attempts === afterFirst; request += 1) {
        assert.is((await down.shared.pets.findById(1)())._tag, 'Left')
        // This process counts a connection when it next polls, which may come after the answer.
        await new Promise((resolve) => setImmediate(resolve))
      }
      assert.ok(context.attempts > afterFirst, `no new connection attempt after the first failure (${context.attempts})`)
    } finally {
      await down.close()
    }
  },
)

Reconnect.run()
