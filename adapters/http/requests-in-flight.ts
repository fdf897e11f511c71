import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

/**
 * The requests of each connection still being answered, pipelined ones included: when Node's parser
 * fails on a connection, the answers of the requests it received whole are sent before its own.
 */
export const requestsInFlight = () => {
  const requests = new WeakMap<Duplex, Map<IncomingMessage, ServerResponse>>()
  const waiting = new WeakMap<Duplex, () => void>()
  const answeredEarly = new WeakSet<Duplex>()
  return {
    track: (request: IncomingMessage, response: ServerResponse): void => {
      const socket = request.socket
      // A new request means the body of the one answered early was received whole.
      answeredEarly.delete(socket)
      const ofSocket = requests.get(socket) ?? new Map<IncomingMessage, ServerResponse>()
      requests.set(socket, ofSocket.set(request, response))
      // `on`, not `once`: a response closes once, and once's wrapper cost a listener more per request.
      response.on('close', () => {
        // Answered before its body was all received: Node reads the rest and discards it.
        if (response.writableFinished && !request.complete) answeredEarly.add(socket)
        ofSocket.delete(request)
        if (ofSocket.size === 0) waiting.get(socket)?.()
      })
    },
    /** The request of the connection in flight whose body is still arriving, with its response; none when all came whole. */
    cutShort: (socket: Duplex): readonly [IncomingMessage, ServerResponse] | undefined =>
      [...(requests.get(socket) ?? [])].find(([request]) => !request.complete),
    /** Runs `then` once every request of the connection in flight is answered: now, when none is. */
    afterAnswers: (socket: Duplex, then: () => void): void => {
      waiting.set(socket, then)
      if ((requests.get(socket)?.size ?? 0) === 0) then()
    },
    /** Whether the connection's last request was answered before its body had all arrived. */
    answeredEarly: (socket: Duplex): boolean => answeredEarly.has(socket),
  }
}
