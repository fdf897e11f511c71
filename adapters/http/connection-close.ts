import type { IncomingMessage } from 'node:http'
import type { Middleware } from 'koa'
import { closingAtShutdown } from './closing-at-shutdown.js'
import { markClosing } from './closing-connections.js'
import type { FailureState } from './error-response.js'

/**
 * Whether reading the request's body began but stopped before its end (a body over the limit, a
 * corrupt compressed one). Node reads on and discards a body nobody began to read, once the answer
 * is sent; one left half-read stays in the connection, where the next request would be looked for.
 */
const bodyLeftUnread = (request: IncomingMessage): boolean => request.readableDidRead && !request.readableEnded

/**
 * `Connection: close` on an answer given when the request's body was left half-read (a 413, a
 * corrupt gzip body: the connection could carry no further request) or refused unread for its size
 * (a 413 by Content-Length: draining it would read what the limit refuses), and once shutdown has
 * begun on the answer of the latest request of each connection (`shutdown` is aborted then), so that
 * its client sends nothing more on it and every request carried out before is answered first
 * (closing-at-shutdown.ts). A request arriving after that answer is decided is not carried out
 * (closing-connections.ts).
 */
export const connectionClose = (shutdown?: AbortSignal): Middleware<FailureState> => {
  const closing = closingAtShutdown(shutdown)
  return async (ctx, next) => {
    closing.begin(ctx.req)
    await next()
    // A body refused for its size is not read (nor drained, as Node would drain a body nobody read).
    const refusedBody = ctx.state.failure?._tag === 'PayloadTooLarge' && !ctx.req.complete
    if (closing.closes(ctx.req) || refusedBody || bodyLeftUnread(ctx.req)) {
      ctx.set('Connection', 'close')
      markClosing(ctx.req.socket)
    }
  }
}
