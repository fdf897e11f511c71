/**
 * Runs `handle` on each item given to the returned function, not at once but together with every
 * other item given in the same turn of the event loop (in a `setImmediate`), in the order given.
 *
 * For work that is cheaper done together than one request at a time: the request log lines and
 * metrics (edge.ts; done between the handling of requests, that code ran with the CPU's caches full
 * of everything else) and the sending of responses (end-of-turn-response.ts). Measured in
 * docs/performance.md. Items are handled before the next requests are read, so nothing waits long
 * and nothing is lost at shutdown.
 */
export const oncePerTurn = <T>(handle: (item: T) => void): ((item: T) => void) => {
  let pending: T[] = []
  const drain = (): void => {
    const items = pending
    pending = []
    for (const item of items) handle(item)
  }
  return (item) => {
    if (pending.length === 0) setImmediate(drain)
    pending.push(item)
  }
}
