/** A store call that outlived its bound; it passes (503), like any timeout. */
export class StoreDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`no answer within ${deadlineMs} ms`)
  }

  override get name(): string {
    return 'StoreDeadlineError'
  }
}

/**
 * `work`, abandoned with StoreDeadlineError after `deadlineMs`. This is the bound the service
 * promises (how long until a 503): the driver's own timeouts each bound one step of one attempt
 * (finding a server, a pooled connection, a reply), and it retries a failed attempt once with fresh
 * timers, so only a bound on the whole call makes "each round trip takes at most the timeout" true.
 * The work itself is not cancelled: what it still does on the server is bounded by `maxTimeMS`
 * (see mongo-options.ts), and its late outcome is dropped.
 */
export const withDeadline = <A>(deadlineMs: number, work: () => Promise<A>): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreDeadlineError(deadlineMs)), deadlineMs)
  })
  const running = work()
  // A late rejection of abandoned work must not become an unhandled rejection.
  running.catch(() => undefined)
  return Promise.race([running, expired]).finally(() => clearTimeout(timer))
}
