import type Router from '@koa/router'
import * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import type { StoreError } from '../../src/domain/errors.js'
import { storeUnavailable } from '../../src/domain/errors.js'
import { sendFailure } from './error-response.js'

export interface HealthOptions {
  /** Whether the store can serve requests now (the Store port's `ready`). */
  readonly ready: () => TE.TaskEither<StoreError, void>
  /** True from the moment shutdown begins, so a load balancer stops sending at once. */
  readonly draining: () => boolean
}

/** Liveness and readiness, outside /v1 and without authentication: they reveal nothing. */
export const registerHealthRoutes = (router: Router, { ready, draining }: HealthOptions): void => {
  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { status: 'alive' }
  })

  router.get('/readyz', async (ctx) => {
    if (draining()) return sendFailure(ctx, storeUnavailable('shutting down'))
    const result = await ready()()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { status: 'ready' }
  })
}
