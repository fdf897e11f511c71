import { randomUUID } from 'node:crypto'
import type { Middleware } from 'koa'
import type { Redact } from './key-redaction.js'

/** Where the request id middleware leaves the id, for the log lines and the error boundary. */
export interface RequestIdState {
  requestId: string
}

/** An incoming X-Request-Id is kept when it is short and plain enough to be safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

/**
 * The request id: the incoming X-Request-Id when sane and free of API keys (an id is logged and
 * echoed, a key never), otherwise a new one.
 */
export const requestIdOf = (incoming: string, redact: Redact): string =>
  SANE_REQUEST_ID.test(incoming) && redact(incoming) === incoming ? incoming : randomUUID()

/** Gives each request its id, returned on every response as X-Request-Id. */
export const requestId =
  (redact: Redact): Middleware<RequestIdState> =>
  (ctx, next) => {
    const id = requestIdOf(ctx.get('X-Request-Id'), redact)
    ctx.state.requestId = id
    ctx.set('X-Request-Id', id)
    return next()
  }
