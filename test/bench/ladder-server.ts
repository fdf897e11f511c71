import Koa, { type Middleware } from 'koa'
import pino from 'pino'
import { staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'
import { createRouter } from '../../adapters/http/app.js'
import { authenticate } from '../../adapters/http/auth.js'
import { cursorCodec } from '../../adapters/http/cursor.js'
import { accessLog } from '../../adapters/http/access-log.js'
import { isUnderApi } from '../../adapters/http/api-path.js'
import { commonHeaders } from '../../adapters/http/common-headers.js'
import { connectionClose } from '../../adapters/http/connection-close.js'
import { errorBoundary } from '../../adapters/http/error-boundary.js'
import { redactNothing } from '../../adapters/http/key-redaction.js'
import { requestId } from '../../adapters/http/request-id.js'
import { registerPetRoutes } from '../../adapters/http/routes.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { PET_STATUSES, type Pet } from '../../src/domain/pet.js'
import { petUseCases } from '../../src/domain/use-cases.js'

/**
 * Where the time of a request goes: getPet and listPets built up a layer at a time from the
 * service's current modules, each rung (BENCH_RUNG) adding one to the one before. The benchmark
 * measures each rung's CPU per request; the differences are what each layer costs. The last rungs,
 * the composed service itself (every other route, the router's 404/405 answers, the HTTP server's
 * own checks; then its log line; then its metrics), are seeded-service.ts with BENCH_OFF.
 * - koa: Koa alone, answering the pet's JSON from a Map (the id cut from the path by hand), or the
 *   first page of pets from an array (the limit read by hand);
 * - router: and @koa/router's routing, as the service builds its router (createRouter), the same
 *   answers declared as `router.get('/v1/pets/:petId')` and `router.get('/v1/pets')`;
 * - edge: and the edge middleware as buildApp registers it (request id, connection close, access
 *   log, error boundary, common headers), with a silent logger and no metrics, so that its log line
 *   and metrics stay for the last rung;
 * - auth: and authentication (the bearer key, checked by the service's authenticator);
 * - routes: and the real routes (registerPetRoutes) instead of the Map: the use case, the ETag,
 *   the deprecation headers, the paging link.
 * Each answer is ended normally, as the service ends its own.
 */
const RUNGS = ['koa', 'router', 'edge', 'auth', 'routes']
const rung = RUNGS.indexOf(process.env.BENCH_RUNG ?? 'koa')
if (rung === -1) throw new Error(`BENCH_RUNG must be one of ${RUNGS.join(', ')}`)
const at = (name: string): boolean => rung >= RUNGS.indexOf(name)

const count = Number(process.env.BENCH_PETS ?? '1000')
const seed = Array.from({ length: count }, (_, index) => ({
  name: `pet ${index}`,
  categoryId: index % 10,
  status: PET_STATUSES[index % 3] ?? 'available',
}))
const store = memoryStore(seed)
const inOrder: ReadonlyArray<Pet> = seed.map((pet, index) => Object.freeze({ id: index + 1, ...pet }))
const byId = new Map<number, Pet>(inOrder.map((pet) => [pet.id, pet]))

/** The first two rungs' get: the pet's JSON (the service's bytes), with only Content-Type set. */
const fromMap: Middleware = (ctx) => {
  const pet = byId.get(Number(ctx.path.slice('/v1/pets/'.length)))
  ctx.set('Content-Type', 'application/json; charset=utf-8')
  ctx.body = pet === undefined ? 'null' : JSON.stringify(pet)
}

/** The first two rungs' list: the first `limit` pets (20 unless the query says), the service's bytes. */
const fromArray: Middleware = (ctx) => {
  const limit = /(?:^|&)limit=(\d+)/.exec(ctx.querystring)?.[1] ?? '20'
  ctx.set('Content-Type', 'application/json; charset=utf-8')
  ctx.body = JSON.stringify(inOrder.slice(0, Number(limit)))
}

/** The first rung's routing: by hand. */
const byPath: Middleware = (ctx, next) => {
  if (ctx.path === '/v1/pets') fromArray(ctx, next)
  else fromMap(ctx, next)
}

const app = new Koa()
app.silent = true
if (at('edge')) {
  const edge = { logger: pino({ level: 'silent' }), redact: redactNothing }
  app.use(requestId(edge.redact))
  app.use(connectionClose())
  app.use(accessLog(edge))
  app.use(errorBoundary(edge))
  app.use(commonHeaders)
}
if (at('auth')) app.use(authenticate(staticKeyAuthenticator([process.env.PETSTORE_API_KEYS ?? '']), (path) => isUnderApi(path)))
if (at('router')) {
  const router = createRouter()
  if (at('routes')) registerPetRoutes(router, { useCases: petUseCases(store.shared), cursors: cursorCodec(), maxBodyBytes: 1024 * 1024 })
  else router.get('/v1/pets/:petId', fromMap).get('/v1/pets', fromArray)
  app.use(router.routes())
} else app.use(byPath)

const server = app.listen(Number(process.env.PORT ?? '0'), '127.0.0.1')
process.once('SIGTERM', () => server.close(() => process.exit(0)))
