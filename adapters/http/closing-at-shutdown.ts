import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'

/**
 * Which answer closes its connection once shutdown has begun. Node writes a connection's answers in
 * the order of its requests and drops every answer queued behind one that says `Connection: close`,
 * so only the answer of the latest request begun on the connection may say it: pipelined requests
 * already being carried out are answered first. A request that arrives after that answer was decided
 * would never be answered, so it is not carried out (its client sees the connection close after the
 * answer that said so, which tells it the request was not processed).
 */
export const closingAtShutdown = (shutdown?: AbortSignal) => {
  // Requests on one connection begin in the order they arrive: the latest one is the last answered.
  const latest = new WeakMap<Socket, IncomingMessage>()
  const closing = new WeakSet<Socket>()
  return {
    /** A request begins; false when its connection's closing answer is decided already: never carry it out. */
    begin: (request: IncomingMessage): boolean => {
      if (closing.has(request.socket)) return false
      latest.set(request.socket, request)
      return true
    },
    /** The request's answer is decided: whether it must say `Connection: close`. */
    closes: (request: IncomingMessage): boolean => {
      if (shutdown?.aborted !== true || latest.get(request.socket) !== request) return false
      closing.add(request.socket)
      return true
    },
  }
}
