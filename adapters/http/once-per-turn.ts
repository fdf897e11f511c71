/**
 * Runs `handle` on each item given to the returned function, not at once but together with every
 * other item given in the same turn of the event loop (in a `setImmediate`), in the order given.
 *
 * For work a response does not wait for: the request log line and the metrics. Done one request at a
 * time, between the parsing and the writing of responses, that code ran with the CPU's caches full
 * of everything else and cost several times what it costs in a loop; done in a batch it stays cached.
 * Measured in docs/performance.md. An item is handled in the same turn as its response is written,
 * before the next requests are read, so nothing waits long and nothing is lost at shutdown.
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
