import type { OutgoingHttpHeaders } from 'node:http'
import type { ParameterizedContext } from 'koa'
import { type FaultName, NETWORK_FAULTS } from './fault-rule.js'
import { type FaultState, logField } from './fault-state.js'
import { rawHeadLines } from '../http/raw-head.js'

export const isNetworkFault = (fault: FaultName): fault is (typeof NETWORK_FAULTS)[number] =>
  (NETWORK_FAULTS as ReadonlyArray<string>).includes(fault)

/** The connection is reset (TCP RST): the client sees ECONNRESET, and no byte of an answer. */
export const resetConnection = (ctx: ParameterizedContext<FaultState>): void => {
  ctx.respond = false
  logField(ctx, 'status', null)
  ctx.req.socket.resetAndDestroy()
}

/**
 * The answer the operation gave, cut short. With a body: its status line and headers,
 * `Content-Length` of the whole body, then half the body. Without one (to HEAD, a 304), where
 * that would be a whole answer: its status line and the first half of its header lines, never the
 * empty line that ends the head, written to the socket (Node's response writes a head only whole).
 * Then the socket is destroyed, not just ended: the server keeps no connection whose client holds
 * its own half open. What was sent is kept for the request journal.
 */
export const sendTruncated = (ctx: ParameterizedContext<FaultState>): void => {
  const text = typeof ctx.body === 'string' ? ctx.body : ctx.body === undefined || ctx.body === null ? '' : JSON.stringify(ctx.body)
  const length = Buffer.byteLength(text)
  const headers: OutgoingHttpHeaders = {
    ...ctx.response.headers,
    ...(length > 0 ? { 'content-length': String(length) } : {}),
    connection: 'close',
  }
  ctx.respond = false
  const socket = ctx.req.socket
  const close = (): void => void socket.destroy()
  if (ctx.method !== 'HEAD' && length > 0) {
    const body = Buffer.from(text).subarray(0, Math.floor(length / 2))
    ctx.state.truncated = { headers, body }
    ctx.res.writeHead(ctx.status, headers)
    ctx.res.write(body, close)
    return
  }
  const entries = Object.entries(headers)
  const sent = Object.fromEntries(entries.slice(0, Math.floor(entries.length / 2)))
  ctx.state.truncated = { headers: sent, body: Buffer.alloc(0) }
  socket.write(
    rawHeadLines(ctx.status, sent)
      .map((line) => `${line}\r\n`)
      .join(''),
    close,
  )
}
