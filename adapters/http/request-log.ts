import { randomUUID } from 'node:crypto'
import type { RouterContext } from '@koa/router'
import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import type { AuthState } from './auth.js'
import type { FailureState } from './error-response.js'

/** An incoming X-Request-Id is kept when it is short and plain enough to be safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

export const requestIdOf = (incoming: string): string => (SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID())

/**
 * One JSON line per request, written once the response is decided: method, route pattern, status,
 * duration, request id and the caller's key id. Never a header value, a key or a body. The request id
 * is returned in X-Request-Id on every response.
 */
export const requestLog =
  (logger: Logger): Middleware<AuthState & FailureState> =>
  async (ctx, next) => {
    const started = performance.now()
    const requestId = requestIdOf(ctx.get('X-Request-Id'))
    ctx.set('X-Request-Id', requestId)
    try {
      await next()
    } finally {
      // @koa/router records the matched pattern on the context; undefined when no route matched.
      const route = (ctx as Partial<Pick<RouterContext, '_matchedRoute'>>)._matchedRoute
      const failure = ctx.state.failure
      logger.info(
        {
          requestId,
          method: ctx.method,
          route: typeof route === 'string' ? route : null,
          status: ctx.status,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          keyId: ctx.state.client?.keyId ?? null,
          ...(failure === undefined ? {} : { failure: failure._tag }),
          ...(failure?._tag === 'StoreUnavailable' ? { detail: failure.detail } : {}),
        },
        'request',
      )
    }
  }
