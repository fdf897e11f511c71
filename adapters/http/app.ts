import { METHODS } from 'node:http'
import Router from '@koa/router'
import Koa from 'koa'
import type { Logger } from 'pino'
import type { Authenticator } from '../../src/domain/authenticator.js'
import type { RateLimitCounter } from '../../src/store/rate-limit-counter.js'
import type { PetUseCases } from '../../src/domain/use-cases.js'
import { authenticate, eitherAuthenticator } from './auth.js'
import { type CursorCodec, cursorCodec } from './cursor.js'
import { type CorsOrigins, corsFor } from './cors.js'
import { type HealthOptions, registerHealthRoutes } from './health-routes.js'
import { registerIndexRoute } from './index-route.js'
import { OPENAPI_PATH, registerDocsRoutes } from './docs-routes.js'
import { accessLog } from './access-log.js'
import { bodyReceived } from './body-received.js'
import { isUnderApi } from './api-path.js'
import { commonHeaders } from './common-headers.js'
import { connectionClose } from './connection-close.js'
import { errorBoundary } from './error-boundary.js'
import type { AppExtension } from './extension.js'
import type { Redact } from './key-redaction.js'
import { createMetrics, registerMetricsRoute } from './metrics.js'
import { loadOpenApiDocument } from './openapi-document.js'
import { rateLimit } from './rate-limit.js'
import { requestId } from './request-id.js'
import { allowedMethods, noRoute } from './router-answers.js'
import { registerPetRoutes } from './routes.js'

export interface AppOptions {
  /** The use cases every key shares, unless an extension chooses others for a request. */
  readonly useCases: PetUseCases
  /** A second driver mounted on this one (extension.ts), when given; nothing of it runs otherwise. */
  readonly extension?: AppExtension
  readonly authenticator: Authenticator
  /** Hides the API keys `authenticator` knows wherever a request shows them: the log and request ids. */
  readonly redact: Redact
  readonly logger: Logger
  /** Shared by every instance behind one load balancer; random per process when omitted. */
  readonly cursors?: CursorCodec
  /** The largest request body accepted, in bytes. */
  readonly maxBodyBytes: number
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
  /** Aborted when shutdown begins: the last answer of each connection closes it. */
  readonly shutdown?: AbortSignal
}

/** The contract this configuration serves at /v1/openapi.json: with the extension's part only when one is mounted. */
export const servedDocumentOf = (options: Pick<AppOptions, 'openApiDocument' | 'extension'>): Record<string, unknown> => {
  const document = options.openApiDocument ?? loadOpenApiDocument()
  return options.extension === undefined ? { ...document } : options.extension.contract(document)
}

/**
 * One case-sensitive router for every route, like the /v1 check that decides authentication:
 * /V1/pets must not reach a route. Strict too: `/v1/pets/` is not `/v1/pets`, so every resource has
 * one URL, and the path that needs no key (`/v1/openapi.json`) cannot be reached under another
 * spelling that does.
 */
export const createRouter = (): Router => new Router({ sensitive: true, strict: true, methods: [...METHODS] })

/**
 * Builds the Koa app from the use cases and ports alone: main.ts and the tests both call this.
 * A request passes through the middleware in the order they are registered:
 * 1. requestId (request-id.ts): its id, returned as X-Request-Id;
 * 2. connectionClose (connection-close.ts): whether the answer closes the connection (shutdown, a
 *    body left unread);
 * 3. accessLog (access-log.ts): one log line and the metrics of the answer, whatever it is; outside
 *    the error boundary, so that it logs the answer the boundary gives;
 * 4. errorBoundary (error-boundary.ts): anything thrown answered through error-response.ts;
 * 5. commonHeaders (common-headers.ts): nosniff, and no-store under /v1;
 * 6. cors, when on; an extension's hook before authentication; authenticate; its hook after
 *    authentication; rateLimit, when on;
 * 7. bodyReceived (body-received.ts): no operation before its request's body has arrived whole;
 * 8. the app's routes (on an operation, an extension's hooks first and once its body is read), then
 *    the extension's own router, tried only when none of the app's routes matched; allowedMethods
 *    (a 405, thrown to the boundary); noRoute (router-answers.ts): 404 for a path no route has, and
 *    OPTIONS answered 204 with `Allow`.
 */
export const buildApp = (options: AppOptions): Koa => {
  const router = createRouter()
  const extension = options.extension
  const { maxBodyBytes } = options
  registerHealthRoutes(router, options.health)
  const served = servedDocumentOf(options)
  registerDocsRoutes(router, served)
  const authenticator =
    extension?.authenticator === undefined ? options.authenticator : eitherAuthenticator(extension.authenticator, options.authenticator)
  const protects = (path: string): boolean => isUnderApi(path) && path !== OPENAPI_PATH
  // The extension's routes on a router of their own, tried after the app's: a router tests every
  // route's pattern on each request, and the app's requests need none of the extension's.
  const extensionRouter = createRouter()
  const mounted = extension?.mount({ router: extensionRouter, appRoutes: router, authentication: { authenticator, protects }, served })
  registerIndexRoute(router, { metrics: options.metrics !== false, links: mounted?.links ?? {} })
  registerPetRoutes(router, {
    useCases: options.useCases,
    cursors: options.cursors ?? cursorCodec(),
    maxBodyBytes,
    ...(mounted === undefined ? {} : { hooks: mounted }),
  })
  const metrics = options.metrics === false ? undefined : createMetrics()
  if (metrics !== undefined) registerMetricsRoute(router, metrics.registry)
  const app = new Koa()
  app.silent = true
  const { logger, redact } = options
  app.use(requestId(redact))
  app.use(connectionClose(options.shutdown))
  app.use(accessLog({ logger, redact, ...(metrics === undefined ? {} : { metrics }) }))
  app.use(errorBoundary({ logger, redact }))
  app.use(commonHeaders)
  if (options.corsOrigins !== undefined) app.use(corsFor(options.corsOrigins))
  if (mounted?.beforeAuthentication !== undefined) app.use(mounted.beforeAuthentication)
  app.use(authenticate(authenticator, protects))
  if (mounted?.afterAuthentication !== undefined) app.use(mounted.afterAuthentication)
  if (options.rateLimit !== undefined)
    app.use(rateLimit({ ...options.rateLimit, logger, ...(mounted?.quotaOf === undefined ? {} : { quotaOf: mounted.quotaOf }) }))
  const routers = mounted === undefined ? [router] : [router, extensionRouter]
  app.use(bodyReceived(routers, maxBodyBytes))
  for (const each of routers) app.use(each.routes())
  app.use(allowedMethods(router))
  app.use(noRoute)
  return app
}
