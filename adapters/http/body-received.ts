import type { IncomingMessage } from 'node:http'
import { finished } from 'node:stream/promises'
import type Router from '@koa/router'
import type { Middleware, ParameterizedContext } from 'koa'
import { isAnsweredByServer } from './closing-connections.js'
import { type FailureState, sendFailure } from './error-response.js'
import { payloadTooLarge } from './http-failures.js'
import { readsBody } from './json-body.js'

/** RFC 9112 §6.3: a request without Content-Length or Transfer-Encoding has no body. */
export const hasBody = (request: IncomingMessage): boolean =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? '0') > 0

/** Whether the route the request goes to, in the first of `routers` that has one, reads its body (jsonBody), which it then gets whole before its operation. */
const routeReadsBody = (routers: ReadonlyArray<Router>, method: string, path: string): boolean => {
  for (const router of routers) {
    const { route, pathAndMethod } = router.match(path, method)
    if (route) return pathAndMethod.some((layer) => layer.stack.some(readsBody))
  }
  return false
}

/** Receives and discards the request's body: whether it arrived whole, and the request may be carried out. */
const receivedWhole = async (ctx: ParameterizedContext<FailureState>, limitBytes: number): Promise<boolean> => {
  const request = ctx.req
  if ((ctx.request.length ?? 0) > limitBytes) {
    sendFailure(ctx, payloadTooLarge(limitBytes))
    return false
  }
  const overLimit = new AbortController()
  let received = 0
  request.on('data', (chunk: Buffer) => {
    received += chunk.length
    if (received > limitBytes) overLimit.abort()
  })
  try {
    await finished(request, { signal: overLimit.signal })
  } catch {
    if (overLimit.signal.aborted) {
      // The rest is not read: the 413 closes the connection (connection-close.ts).
      request.pause()
      sendFailure(ctx, payloadTooLarge(limitBytes))
    }
    return false
  }
  // Answered by the HTTP server while its body arrived (a 408): not carried out.
  return !isAnsweredByServer(request)
}

/**
 * A request's operation is carried out only once its body has arrived whole, its framing found
 * valid. Node hands a request over as soon as its head is parsed: a route that reads no body would
 * run then, even when the body's framing breaks right after (answered 400 by the HTTP server). So
 * before routing, the body of a request whose route does not read it is received here and
 * discarded, at most `limitBytes` of it (more is refused with 413, as a route that reads it would);
 * when it breaks off (bad framing, a timeout, a client giving up), the request is not carried out:
 * the HTTP server answers the failure, or its client is gone. A route that reads the body gets it
 * whole (json-body.ts). A request without a body (nearly all) goes on at once, even when Node has
 * not yet marked it complete (it does so just after handing it over).
 */
export const bodyReceived =
  (routers: ReadonlyArray<Router>, limitBytes: number): Middleware<FailureState> =>
  (ctx, next) => {
    const waits = !ctx.req.complete && hasBody(ctx.req) && !routeReadsBody(routers, ctx.method, ctx.path)
    if (!waits) return next()
    return receivedWhole(ctx, limitBytes).then((whole) => (whole ? next() : undefined))
  }
