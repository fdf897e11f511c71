import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

/**
 * A connection's requests still being answered: how many, and the last one received while it is.
 * Only that one can have a body still arriving: Node's parser reads a connection's requests one
 * after another, each whole before the next begins.
 *
 * One object per connection, changed in place: a Map of its requests, added to and deleted from
 * for each, made V8 allocate a new table at every delete, in the old generation where the
 * connection's long-lived Map was: garbage that only a full collection frees (docs/performance.md).
 */
interface InFlight {
  count: number
  request: IncomingMessage | undefined
  response: ServerResponse | undefined
}

/**
 * The requests of each connection still being answered, pipelined ones included: when Node's parser
 * fails on a connection, the answers of the requests it received whole are sent before its own.
 */
export const requestsInFlight = () => {
  const connections = new WeakMap<Duplex, InFlight>()
  const waiting = new WeakMap<Duplex, () => void>()
  const answeredEarly = new WeakSet<Duplex>()
  const inFlightOf = (socket: Duplex): InFlight => {
    const known = connections.get(socket)
    if (known !== undefined) return known
    const created: InFlight = { count: 0, request: undefined, response: undefined }
    connections.set(socket, created)
    return created
  }
  return {
    track: (request: IncomingMessage, response: ServerResponse): void => {
      const socket = request.socket
      // A new request means the body of the one answered early was received whole.
      answeredEarly.delete(socket)
      const inFlight = inFlightOf(socket)
      inFlight.count += 1
      inFlight.request = request
      inFlight.response = response
      // `on`, not `once`: a response closes once, and once's wrapper cost a listener more per request.
      response.on('close', () => {
        // Answered before its body was all received: Node reads the rest and discards it.
        if (response.writableFinished && !request.complete) answeredEarly.add(socket)
        inFlight.count -= 1
        // Nothing of an answered request stays held by its connection.
        if (inFlight.request === request) {
          inFlight.request = undefined
          inFlight.response = undefined
        }
        if (inFlight.count === 0) waiting.get(socket)?.()
      })
    },
    /** The request of the connection in flight whose body is still arriving, with its response; none when all came whole. */
    cutShort: (socket: Duplex): readonly [IncomingMessage, ServerResponse] | undefined => {
      const { request, response } = connections.get(socket) ?? {}
      return request !== undefined && response !== undefined && !request.complete ? [request, response] : undefined
    },
    /** Runs `then` once every request of the connection in flight is answered: now, when none is. */
    afterAnswers: (socket: Duplex, then: () => void): void => {
      waiting.set(socket, then)
      if ((connections.get(socket)?.count ?? 0) === 0) then()
    },
    /** Whether the connection's last request was answered before its body had all arrived. */
    answeredEarly: (socket: Duplex): boolean => answeredEarly.has(socket),
  }
}
