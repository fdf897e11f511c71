import { bodyParser } from '@koa/bodyparser'
import Router from '@koa/router'
import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as t from 'io-ts'
import { PathReporter } from 'io-ts/PathReporter'
import Koa, { type Context } from 'koa'
import pino from 'pino'

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
 */

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
const expectedAuthorization = `Bearer ${process.env.PETSTORE_API_KEYS ?? ''}`

const router = new Router({ prefix: '/v1' })

router.get('/pets', (ctx) =>
  pipe(
    ListQuery.decode(ctx.query),
    E.match(
      (errors) => fail(ctx, 400, 'invalid_parameter', PathReporter.report(E.left(errors)).join('; ')),
      ({ limit = 20, status }) => {
        // In id order; stop as soon as the page is full.
        const page: Pet[] = []
        for (const pet of pets) {
          if (page.length === limit) break
          if (status === undefined || pet.status === status) page.push(pet)
        }
        ctx.body = page
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
  if (pet === undefined) return fail(ctx, 404, 'not_found', `no pet has id ${ctx.params.petId}`)
  ctx.body = pet
})

const app = new Koa()
app.silent = true

// One log line per request, once it is answered.
app.use(async (ctx, next) => {
  const started = performance.now()
  await next()
  logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, durationMs: performance.now() - started }, 'request')
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
  if (ctx.get('Authorization') !== expectedAuthorization) {
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
