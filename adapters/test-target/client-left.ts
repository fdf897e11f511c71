import type { Socket } from 'node:net'

/**
 * The requests in flight on each connection that wait to learn that its client left: one listener
 * a connection, however many requests it carries. An array, not a Set: a Set that a request joins
 * and leaves makes V8 allocate a new table at every leave, in the old generation where the
 * connection's Set lives, garbage that only a full collection frees (as in requests-in-flight.ts).
 */
const waiting = new WeakMap<Socket, Array<() => void>>()

/**
 * Calls `left` when the client of `socket` ends its side of the connection (its FIN), as a client
 * that gives up on a request does (a timeout, a cancelled call): HTTP servers let a client half-close
 * (this one answers such a request all the same), so the connection itself stays open and nothing
 * else tells the request. A client that half-closes on purpose after sending looks the same, and
 * is rare; one whose side had already ended when the request got here certainly did so: `left` is
 * never called for it. Answers a function that stops waiting, for a request that ended first.
 */
export const whenClientLeaves = (socket: Socket, left: () => void): (() => void) => {
  if (socket.readableEnded) return () => undefined
  let requests = waiting.get(socket)
  if (requests === undefined) {
    const listening: Array<() => void> = []
    requests = listening
    waiting.set(socket, listening)
    socket.once('end', () => {
      for (const request of listening.splice(0)) request()
    })
  }
  const own = requests
  own.push(left)
  return () => {
    const index = own.indexOf(left)
    if (index !== -1) own.splice(index, 1)
  }
}
