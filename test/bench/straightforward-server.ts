import { createHmac, hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import { bodyParser } from '@koa/bodyparser'
import Router, { type RouterContext } from '@koa/router'
import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as t from 'io-ts'
import { PathReporter } from 'io-ts/PathReporter'
import Koa, { type Context } from 'koa'
import pino from 'pino'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * The straightforward build: what a developer would write for the same three operations with the
 * service's libraries (Koa, @koa/router, @koa/bodyparser, io-ts, fp-ts, pino), the way their
 * guides show, and nothing more. The benchmark compares the service with it, to say what the
 * service's own way of using those libraries gains (or loses) against the obvious one.
 *
 * It is built from none of the service's modules (nothing from adapters/ or src/) and has none of
 * its features: no ETag, metrics, request ids, idempotency, sandboxes, paging links, deprecation
 * headers. It checks the bearer key, validates with io-ts, logs one pino line per request to
 * stdout (buffered like the service's), and gives the benchmark's requests the service's statuses
 * and JSON bodies.
 *
 * With BENCH_FEATURES=on it has the service's default features on the benchmark's requests, each
 * written the plainest way that keeps its promise (docs/performance.md, its method: the features
 * at their least): a request id, the common headers, the key compared in constant time, prom-client's
 * metrics, the log line's fields, a read's ETag and If-None-Match, getPet's deprecation headers and
 * the list's signed `next` link. What it costs over the build without them is about the least any
 * build of these features on this stack can cost.
 */
const FEATURES = process.env.BENCH_FEATURES === 'on'

const Status = t.keyof({ available: null, pending: null, sold: null })
type Status = t.TypeOf<typeof Status>

interface NameBrand {
  readonly Name: unique symbol
}
const Name = t.brand(t.string, (name): name is t.Branded<string, NameBrand> => name.length > 0 && name.length <= 200, 'Name')

interface CategoryIdBrand {
  readonly CategoryId: unique symbol
}
const CategoryId = t.brand(t.number, (id): id is t.Branded<number, CategoryIdBrand> => Number.isSafeInteger(id), 'CategoryId')

const NewPet = t.intersection([t.type({ name: Name, categoryId: CategoryId }), t.partial({ status: Status })])

/** The query's limit, a decimal integer from 1 to 100. */
const Limit = new t.Type<number, string, unknown>(
  'Limit',
  (input): input is number => typeof input === 'number' && Number.isInteger(input) && input >= 1 && input <= 100,
  (input, context) => {
    const limit = typeof input === 'string' && /^[0-9]+$/.test(input) ? Number(input) : NaN
    return limit >= 1 && limit <= 100 ? t.success(limit) : t.failure(input, context, 'limit must be an integer from 1 to 100')
  },
  String,
)
const ListQuery = t.partial({ limit: Limit, status: Status })

interface Pet {
  readonly id: number
  readonly name: string
  readonly categoryId: number
  readonly status: Status
}

const pets: Pet[] = []
const byId = new Map<number, Pet>()

const addPet = (name: string, categoryId: number, status: Status): Pet => {
  const pet = { id: pets.length + 1, name, categoryId, status }
  pets.push(pet)
  byId.set(pet.id, pet)
  return pet
}

/** Errors as the service writes them: {code, message, status}. */
const fail = (ctx: Context, status: number, code: string, message: string): void => {
  ctx.status = status
  ctx.body = { code, message, status }
}

const logger = pino(pino.destination({ dest: 1, sync: true, minLength: 4096 }))
const key = process.env.PETSTORE_API_KEYS ?? ''
const expectedAuthorization = `Bearer ${key}`
const keyBytes = Buffer.from(key)

/** With the features: the key compared in constant time. */
const isKnownKey = (authorization: string): boolean => {
  if (!FEATURES) return authorization === expectedAuthorization
  const given = Buffer.from(authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '')
  return given.length === keyBytes.length && timingSafeEqual(given, keyBytes)
}

/** With the features: prom-client's default metrics, and each answer counted and timed by method and route. */
const metrics = FEATURES
  ? (() => {
      const registry = new Registry()
      collectDefaultMetrics({ register: registry })
      const registers = [registry]
      return {
        requests: new Counter({ name: 'http_requests_total', help: 'answers', labelNames: ['method', 'route', 'status'], registers }),
        duration: new Histogram({
          name: 'http_request_duration_seconds',
          help: 'time to answer',
          labelNames: ['method', 'route'],
          buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
          registers,
        }),
      }
    })()
  : undefined

/** A read's answer: with the features, its ETag (over the body and its Link), and 304 when If-None-Match names it. */
const sendRead = (ctx: Context, body: ReadonlyArray<Pet> | Pet, link?: string): void => {
  if (!FEATURES) {
    ctx.body = body
    return
  }
  const json = JSON.stringify(body)
  const etag = `"${hash('sha1', `${json}\n${link ?? ''}`, 'base64url')}"`
  ctx.set('Cache-Control', 'private, no-cache')
  if (link !== undefined) ctx.set('Link', link)
  ctx.set('ETag', etag)
  if (ctx.get('If-None-Match') === etag) {
    ctx.status = 304
    return
  }
  ctx.type = 'json'
  ctx.body = json
}

const cursorSecret = randomBytes(32)
/** With the features: the next page's link, its position signed (HMAC-SHA256). */
const nextLink = (query: Context['query'], after: number): string => {
  const position = after.toString(36)
  const mac = createHmac('sha256', cursorSecret).update(position).digest('base64url').slice(0, 16)
  const status = typeof query.status === 'string' ? `status=${query.status}&` : ''
  return `</v1/pets?limit=${String(query.limit ?? '20')}&${status}after=${position}.${mac}>; rel="next"`
}

const router = new Router({ prefix: '/v1' })

router.get('/pets', (ctx) =>
  pipe(
    ListQuery.decode(ctx.query),
    E.match(
      (errors) => fail(ctx, 400, 'invalid_parameter', PathReporter.report(E.left(errors)).join('; ')),
      ({ limit = 20, status }) => {
        // In id order; stop as soon as the page is full, or (with the features) at the next pet, which says a next page exists.
        const page: Pet[] = []
        let more = false
        for (const pet of pets) {
          if (page.length === limit && !FEATURES) break
          if (status === undefined || pet.status === status) {
            more = page.length === limit
            if (more) break
            page.push(pet)
          }
        }
        const last = page[page.length - 1]
        sendRead(ctx, page, FEATURES && more && last !== undefined ? nextLink(ctx.query, last.id) : undefined)
      },
    ),
  ),
)

router.post('/pets', (ctx) =>
  pipe(
    NewPet.decode(ctx.request.body),
    E.match(
      (errors) => fail(ctx, 400, 'invalid_body', PathReporter.report(E.left(errors)).join('; ')),
      ({ name, categoryId, status = 'available' }) => {
        const pet = addPet(name, categoryId, status)
        ctx.status = 201
        ctx.set('Location', `/v1/pets/${pet.id}`)
        ctx.body = pet
      },
    ),
  ),
)

router.get('/pets/:petId', (ctx) => {
  const pet = byId.get(Number(ctx.params.petId))
  if (FEATURES) {
    ctx.set('Deprecation', '@1795305600')
    ctx.set('Sunset', 'Thu, 05 Dec 2030 00:00:00 GMT')
    ctx.set('Link', '</v1/pets>; rel="successor-version"')
  }
  if (pet === undefined) return fail(ctx, 404, 'not_found', `no pet has id ${ctx.params.petId}`)
  sendRead(ctx, pet)
})

const app = new Koa()
app.silent = true

// One log line per request, once it is answered; with the features, its request id, common headers and metrics too.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/
app.use(async (ctx, next) => {
  const started = performance.now()
  if (!FEATURES) {
    await next()
    logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, durationMs: performance.now() - started }, 'request')
    return
  }
  const incoming = ctx.get('X-Request-Id')
  const requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
  ctx.set('X-Request-Id', requestId)
  ctx.set('X-Content-Type-Options', 'nosniff')
  ctx.set('Cache-Control', 'no-store')
  await next()
  const durationMs = performance.now() - started
  const { routeMatched, routerPath } = ctx as Partial<Pick<RouterContext, 'routeMatched' | 'routerPath'>>
  const route = routeMatched === true && routerPath !== undefined ? routerPath : 'unmatched'
  metrics?.requests.inc({ method: ctx.method, route, status: ctx.status })
  metrics?.duration.observe({ method: ctx.method, route }, durationMs / 1000)
  logger.info({ requestId, method: ctx.method, path: ctx.path, route, status: ctx.status, durationMs, keyId: 'bench' }, 'request')
})

// Whatever a middleware throws (the body parser's 400 and 413 among them) answered as JSON.
app.use(async (ctx, next) => {
  try {
    await next()
  } catch (error) {
    const status = (error as { status?: number }).status ?? 500
    fail(ctx, status, status === 500 ? 'internal_error' : 'bad_request', status === 500 ? 'an unexpected error occurred' : String(error))
  }
})

app.use(async (ctx, next) => {
  if (!isKnownKey(ctx.get('Authorization'))) {
    ctx.set('WWW-Authenticate', 'Bearer')
    return fail(ctx, 401, 'unauthorized', 'the API key is not valid')
  }
  await next()
})

app.use(bodyParser())
app.use(router.routes())
app.use(router.allowedMethods())

const count = Number(process.env.BENCH_PETS ?? '1000')
const statuses: ReadonlyArray<Status> = ['available', 'pending', 'sold']
for (let index = 0; index < count; index += 1) addPet(`pet ${index}`, index % 10, statuses[index % 3] ?? 'available')

const server = app.listen(Number(process.env.PORT ?? '0'), '127.0.0.1')
process.once('SIGTERM', () =>
  server.close(() => {
    // The last lines, fewer than minLength bytes, are still in pino's buffer.
    logger.flush()
    process.exit(0)
  }),
)
