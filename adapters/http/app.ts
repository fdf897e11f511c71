import { METHODS } from 'node:http'
import Router from '@koa/router'
import Koa, { type Context, type Middleware } from 'koa'
import type { Logger } from 'pino'
import type { Authenticator } from '../../src/domain/authenticator.js'
import type { RateLimitCounter } from '../../src/ports/rate-limit-counter.js'
import type { PetUseCases } from '../../src/domain/use-cases.js'
import { authenticate } from './auth.js'
import { type CursorCodec, cursorCodec } from './cursor.js'
import { type CorsOrigins, corsFor } from './cors.js'
import { sendFailure } from './error-response.js'
import { type HealthOptions, registerHealthRoutes } from './health-routes.js'
import { registerIndexRoute } from './index-route.js'
import { registerInspectorRoutes } from './inspector-routes.js'
import { methodNotAllowed, routeNotFound } from './http-failures.js'
import { OPENAPI_PATH, registerDocsRoutes } from './docs-routes.js'
import { edge, isUnderApi } from './edge.js'
import { faultScripts } from './fault-script.js'
import { faults } from './faults.js'
import { journalRequests, operationsOf, requestJournal } from './request-journal.js'
import type { Redact } from './key-redaction.js'
import { DEFAULT_MAX_BODY_BYTES } from './json-body.js'
import { createMetrics, registerMetricsRoute } from './metrics.js'
import { loadOpenApiDocument, servedOpenApiDocument } from './openapi-document.js'
import { rateLimit } from './rate-limit.js'
import { registerPetRoutes } from './routes.js'
import type { Sandboxes } from '../../src/ports/sandboxes.js'
import { chooseSandbox, registerSandboxRoutes, SANDBOX_REQUEST_COUNT_PATH, SANDBOX_REQUESTS_PATH } from './sandboxes.js'

export interface AppOptions {
  /** The use cases every key shares, unless `sandboxes` gives each key its own. */
  readonly useCases: PetUseCases
  /** Per-key sandboxes, with POST /v1/sandbox/reset; off when omitted. */
  readonly sandboxes?: Sandboxes
  readonly authenticator: Authenticator
  /** Hides the API keys `authenticator` knows wherever a request shows them: the log, request ids, the journal. */
  readonly redact: Redact
  readonly logger: Logger
  /** Shared by every instance behind one load balancer; random per process when omitted. */
  readonly cursors?: CursorCodec
  readonly maxBodyBytes?: number
  /** The contract served at /v1/openapi.json, less the features that are off; docs/openapi.yaml when omitted. */
  readonly openApiDocument?: Readonly<Record<string, unknown>>
  /** Readiness of the store for /readyz, and whether shutdown has begun. */
  readonly health: HealthOptions
  /** Browsers on these origins may call the API; off when omitted. */
  readonly corsOrigins?: CorsOrigins
  /** Requests per API key per minute, counted by `counter`; off when omitted. */
  readonly rateLimit?: { readonly limit: number; readonly counter: RateLimitCounter }
  /** GET /metrics in the Prometheus format; on unless false. */
  readonly metrics?: boolean
  /** Clients may force failures and delays of the pet operations with `Prefer`; off unless true. */
  readonly faults?: boolean
  /** Aborted when shutdown begins: forced delays end at once, and every answer closes its connection. */
  readonly shutdown?: AbortSignal
}

/** The contract this configuration serves at /v1/openapi.json: the parts of features that are off are left out. */
export const servedDocumentOf = (options: Pick<AppOptions, 'openApiDocument' | 'faults' | 'sandboxes'>): Record<string, unknown> =>
  servedOpenApiDocument(options.openApiDocument ?? loadOpenApiDocument(), {
    sandboxes: options.sandboxes !== undefined,
    faults: options.faults === true,
  })

/** The order `Allow` lists methods in, whatever order the routes were declared in. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

const allowedOf = (header: string): string[] => {
  const allowed = header.split(',').map((method) => method.trim())
  return METHOD_ORDER.filter((method) => allowed.includes(method))
}

/**
 * What @koa/router decides but leaves without the service's body: its allowedMethods answers 405
 * (with `Allow`) and OPTIONS (200, with `Allow` and an empty body), and nothing answers a path no
 * route has. Here each gets what every answer has: a JSON Error, or, for OPTIONS, 204 (it has no
 * content); `Allow` lists the methods in one order.
 */
const routerAnswers: Middleware = async (ctx, next) => {
  await next()
  // Answered already (a body), or never to be (a fault broke the connection).
  if ((ctx.body !== undefined && ctx.body !== null && ctx.body !== '') || ctx.respond === false) return
  // Koa 3 reads an unset response header as undefined, whatever its types say: none set is none allowed.
  const allow = ctx.response.get('Allow') ?? ''
  if (ctx.status === 405) return sendFailure(ctx, methodNotAllowed(ctx.method, allowedOf(allow)))
  if (ctx.method === 'OPTIONS' && allowedOf(allow).length > 0) {
    ctx.set('Allow', allowedOf(allow).join(', '))
    ctx.status = 204
    return
  }
  if (ctx.status === 404) sendFailure(ctx, routeNotFound(ctx.method, ctx.path))
}

/**
 * One case-sensitive router for every route, like the /v1 check that decides authentication:
 * /V1/pets must not reach a route. Strict too: `/v1/pets/` is not `/v1/pets`, so every resource has
 * one URL, and the path that needs no key (`/v1/openapi.json`) cannot be reached under another
 * spelling that does.
 */
export const createRouter = (): Router => new Router({ sensitive: true, strict: true, methods: [...METHODS] })

/** Builds the Koa app from the use cases and ports alone: main.ts and the tests both call this. */
export const buildApp = (options: AppOptions): Koa => {
  const router = createRouter()
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  // With sandboxes, each one's journal, and with faults too its fault script: in memory, like the sandboxes.
  const journal = options.sandboxes === undefined ? undefined : requestJournal()
  const scripts = options.sandboxes !== undefined && options.faults === true ? faultScripts() : undefined
  registerIndexRoute(router, { metrics: options.metrics !== false, sandboxes: journal !== undefined, faultScripts: scripts !== undefined })
  registerHealthRoutes(router, options.health)
  registerDocsRoutes(router, servedDocumentOf(options))
  registerPetRoutes(router, {
    useCases: options.useCases,
    cursors: options.cursors ?? cursorCodec(),
    maxBodyBytes,
    ...(options.faults === true
      ? {
          before: faults({
            ...(options.shutdown === undefined ? {} : { shutdown: options.shutdown }),
            ...(scripts === undefined ? {} : { scripts }),
          }),
        }
      : {}),
  })
  if (options.sandboxes !== undefined && journal !== undefined) {
    registerSandboxRoutes(router, { sandboxes: options.sandboxes, journal, maxBodyBytes, ...(scripts === undefined ? {} : { scripts }) })
    registerInspectorRoutes(router)
  }
  const metrics = options.metrics === false ? undefined : createMetrics()
  if (metrics !== undefined) registerMetricsRoute(router, metrics.registry)
  const app = new Koa()
  app.silent = true
  app.use(
    edge({
      logger: options.logger,
      redact: options.redact,
      ...(metrics === undefined ? {} : { metrics }),
      ...(options.shutdown === undefined ? {} : { shutdown: options.shutdown }),
    }),
  )
  if (options.corsOrigins !== undefined) app.use(corsFor(options.corsOrigins))
  app.use(authenticate(options.authenticator, (path) => isUnderApi(path) && path !== OPENAPI_PATH))
  if (journal !== undefined) app.use(journalRequests(journal, { redact: options.redact, operationOf: operationsOf(router) }))
  // Reading a sandbox's journal (or counting in it) is not counted: an open inspector polls it, and a
  // test's checks must not spend the key's quota.
  const journalRead = (ctx: Context): boolean =>
    journal !== undefined && ctx.method === 'GET' && (ctx.path === SANDBOX_REQUESTS_PATH || ctx.path === SANDBOX_REQUEST_COUNT_PATH)
  if (options.rateLimit !== undefined) app.use(rateLimit({ ...options.rateLimit, logger: options.logger, uncounted: journalRead }))
  if (options.sandboxes !== undefined) app.use(chooseSandbox(options.sandboxes))
  app.use(routerAnswers)
  app.use(router.routes())
  app.use(router.allowedMethods())
  return app
}
