import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'

/**
 * Which answer closes its connection once shutdown has begun. Node writes a connection's answers in
 * the order of its requests and drops every answer queued behind one that says `Connection: close`,
 * so only the answer of the latest request begun on the connection may say it: pipelined requests
 * already being carried out are answered first. A request that arrives after that answer was decided
 * is not carried out (closing-connections.ts): its client sees the connection close after the answer
 * that said so, which tells it the request was not processed.
 */
export const closingAtShutdown = (shutdown?: AbortSignal) => {
  // Requests on one connection begin in the order they arrive: the latest one is the last answered.
  const latest = new WeakMap<Socket, IncomingMessage>()
  return {
    /** A request begins. */
    begin: (request: IncomingMessage): void => void latest.set(request.socket, request),
    /** The request's answer is decided: whether it must say `Connection: close`. */
    closes: (request: IncomingMessage): boolean => shutdown?.aborted === true && latest.get(request.socket) === request,
  }
}
