import { createServer } from 'node:http'
import Koa, { type Middleware } from 'koa'
import pino from 'pino'
import { staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'
import { authenticate } from '../../adapters/http/auth.js'
import { cursorCodec } from '../../adapters/http/cursor.js'
import { edge, isUnderApi } from '../../adapters/http/edge.js'
import Router from '@koa/router'
import { registerPetRoutes } from '../../adapters/http/routes.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { PET_STATUSES, type Pet } from '../../src/domain/pet.js'
import { petUseCases } from '../../src/domain/use-cases.js'

/**
 * Where the time of a request goes: getPet built up a layer at a time from the service's own
 * modules, each rung (BENCH_RUNG) adding one to the one before. The benchmark measures each rung's
 * CPU per request; the differences are what each layer costs. The last rung, the composed service
 * itself (log line, metrics, every route), is seeded-service.ts.
 * - koa: Koa alone, answering the pet's JSON from a Map;
 * - dispatch: and the service's dispatch of the pet operations (the path and method compared by
 *   hand; @koa/router declares the routes but no longer matches these three);
 * - edge: and the edge middleware (request id, common headers, error boundary), without its log
 *   line and metrics;
 * - auth: and authentication;
 * - operation: and the real routes instead of the Map (the use case, the ETag, the deprecation headers).
 */
const RUNGS = ['koa', 'dispatch', 'edge', 'auth', 'operation']
const rung = RUNGS.indexOf(process.env.BENCH_RUNG ?? 'koa')
const count = Number(process.env.BENCH_PETS ?? '1000')
const seed = Array.from({ length: count }, (_, index) => ({
  name: `pet ${index}`,
  categoryId: index % 10,
  status: PET_STATUSES[index % 3] ?? 'available',
}))
const store = memoryStore(seed)
const byId = new Map<number, Pet>(seed.map((pet, index) => [index + 1, Object.freeze({ id: index + 1, ...pet })]))

const app = new Koa()
app.silent = true
const fromMap: Middleware = (ctx) => {
  const pet = byId.get(Number(ctx.path.slice('/v1/pets/'.length)))
  ctx.set('Content-Type', 'application/json; charset=utf-8')
  ctx.body = pet === undefined ? 'null' : JSON.stringify(pet)
}
if (rung >= RUNGS.indexOf('edge')) app.use(edge(pino({ level: 'silent' })))
if (rung >= RUNGS.indexOf('auth')) {
  app.use(authenticate(staticKeyAuthenticator([process.env.PETSTORE_API_KEYS ?? '']), (path) => isUnderApi(path)))
}
if (rung >= RUNGS.indexOf('operation')) {
  const router = new Router()
  registerPetRoutes(router, { useCases: petUseCases(store.shared), cursors: cursorCodec(), maxBodyBytes: 1024 * 1024 })
  app.use(router.routes())
} else if (rung >= RUNGS.indexOf('dispatch')) {
  const router = new Router()
  router.get('/v1/pets/:petId', fromMap)
  app.use(router.routes())
} else app.use(fromMap)
// Sent as the service sends its answers, at the end of each event-loop turn.
const handle = app.callback()
const server = createServer((request, response) => void handle(request, response)).listen(
  Number(process.env.PORT ?? '0'),
  '127.0.0.1',
)
process.once('SIGTERM', () => server.close(() => process.exit(0)))
