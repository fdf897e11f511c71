import type Router from '@koa/router'
import Koa, { type Middleware } from 'koa'
import type { Logger } from 'pino'
import type { Authenticator } from '../../src/domain/authenticator.js'
import type { PetUseCases } from '../../src/domain/use-cases.js'
import { authenticate } from './auth.js'
import { type CursorCodec, cursorCodec } from './cursor.js'
import { FailureSignal, sendFailure } from './error-response.js'
import { type HealthOptions, healthRoutes } from './health-routes.js'
import { internalError, methodNotAllowed, routeNotFound } from './http-failures.js'
import { docsRoutes, OPENAPI_PATH } from './docs-routes.js'
import { DEFAULT_MAX_BODY_BYTES } from './json-body.js'
import { loadOpenApiDocument } from './openapi-document.js'
import { requestLog } from './request-log.js'
import { petRoutes } from './routes.js'

export interface AppOptions {
  readonly useCases: PetUseCases
  readonly authenticator: Authenticator
  readonly logger: Logger
  /** Shared by every instance behind one load balancer; random per process when omitted. */
  readonly cursors?: CursorCodec
  readonly maxBodyBytes?: number
  /** The contract served at /v1/openapi.json; docs/openapi.yaml when omitted. */
  readonly openApiDocument?: unknown
  /** Readiness of the store for /readyz, and whether shutdown has begun. */
  readonly health: HealthOptions
}

const API_PREFIX = '/v1'

const isUnderApi = (path: string): boolean => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)

/** Headers every response carries; authenticated API answers are never stored by caches. */
const baseHeaders: Middleware = async (ctx, next) => {
  ctx.set('X-Content-Type-Options', 'nosniff')
  if (isUnderApi(ctx.path)) ctx.set('Cache-Control', 'no-store')
  await next()
}

/** The one exit for anything thrown: a FailureSignal is answered as itself, anything else as a 500. */
const errorBoundary =
  (logger: Logger): Middleware =>
  async (ctx, next) => {
    try {
      await next()
    } catch (error) {
      if (error instanceof FailureSignal) return sendFailure(ctx, error.failure)
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unexpected failure while answering a request')
      sendFailure(ctx, internalError)
    }
  }

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']

/** What the router did not answer: 204 to OPTIONS, 405 to a wrong method, 404 to an unknown path. */
const unmatched =
  (routers: ReadonlyArray<Router>): Middleware =>
  (ctx) => {
    const layers = routers.flatMap((router) => router.match(ctx.path, ctx.method).path)
    const methods = new Set(layers.flatMap((layer) => layer.methods))
    const allow = METHOD_ORDER.filter((method) => methods.has(method))
    if (allow.length === 0) return sendFailure(ctx, routeNotFound(ctx.method, ctx.path))
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allow.join(', '))
      ctx.status = 204
      return
    }
    sendFailure(ctx, methodNotAllowed(ctx.method, allow))
  }

/** Builds the Koa app from the use cases and ports alone: main.ts and the tests both call this. */
export const buildApp = (options: AppOptions): Koa => {
  const router = petRoutes({
    useCases: options.useCases,
    cursors: options.cursors ?? cursorCodec(),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  })
  const docs = docsRoutes(options.openApiDocument ?? loadOpenApiDocument())
  const health = healthRoutes(options.health)
  const requireKey = authenticate(options.authenticator)
  const app = new Koa()
  app.silent = true
  app.use(requestLog(options.logger))
  app.use(baseHeaders)
  app.use(errorBoundary(options.logger))
  // Authenticate before routing, so that without a key nothing reveals which routes exist.
  app.use(async (ctx, next) => {
    if (isUnderApi(ctx.path) && ctx.path !== OPENAPI_PATH) await requireKey(ctx, next)
    else await next()
  })
  app.use(health.routes())
  app.use(docs.routes())
  app.use(router.routes())
  app.use(unmatched([health, docs, router]))
  return app
}
