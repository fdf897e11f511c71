import Router from '@koa/router'
import Koa from 'koa'
import pino from 'pino'
import { staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'
import { authenticate } from '../../adapters/http/auth.js'
import { cursorCodec } from '../../adapters/http/cursor.js'
import { edge, isUnderApi } from '../../adapters/http/edge.js'
import { petJson } from '../../adapters/http/pet-json.js'
import { petOperations, registerPetRoutes } from '../../adapters/http/routes.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { PET_STATUSES, type Pet } from '../../src/domain/pet.js'
import { petUseCases } from '../../src/domain/use-cases.js'

/**
 * Where the time of a request goes: getPet built up a layer at a time from the service's own
 * modules, each rung (BENCH_RUNG) adding one to the one before. The benchmark measures each rung's
 * CPU per request; the differences are what each layer costs. The last rung, the composed service
 * itself (log line, metrics, every route), is seeded-service.ts.
 * - koa: Koa alone, answering the pet's JSON from a Map;
 * - router: and @koa/router, matching /v1/pets/:petId;
 * - edge: and the edge middleware (request id, common headers, error boundary), without its log
 *   line and metrics;
 * - auth: and authentication;
 * - operation: and the real routes instead of the Map (the use case, the ETag, the deprecation headers).
 */
const RUNGS = ['koa', 'router', 'edge', 'auth', 'operation']
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
const router = new Router({ sensitive: true, strict: true })
const fromMap = (id: string): string => {
  const pet = byId.get(Number(id))
  return pet === undefined ? 'null' : petJson(pet)
}
if (rung >= RUNGS.indexOf('edge')) app.use(edge(pino({ level: 'silent' })))
if (rung >= RUNGS.indexOf('auth')) {
  app.use(authenticate(staticKeyAuthenticator([process.env.PETSTORE_API_KEYS ?? '']), (path) => isUnderApi(path)))
}
if (rung >= RUNGS.indexOf('operation')) {
  registerPetRoutes(
    router,
    petOperations({ useCases: petUseCases(store.shared), cursors: cursorCodec(), maxBodyBytes: 1024 * 1024, etags: true }),
  )
} else {
  router.get('/v1/pets/:petId', (ctx) => {
    ctx.set('Content-Type', 'application/json; charset=utf-8')
    ctx.body = fromMap(ctx.params.petId ?? '')
  })
}
if (rung >= RUNGS.indexOf('router')) app.use(router.routes())
else {
  app.use((ctx) => {
    ctx.set('Content-Type', 'application/json; charset=utf-8')
    ctx.body = fromMap(ctx.path.slice('/v1/pets/'.length))
  })
}
const server = app.listen(Number(process.env.PORT ?? '0'), '127.0.0.1')
process.once('SIGTERM', () => server.close(() => process.exit(0)))
