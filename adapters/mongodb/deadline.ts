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
 * `work`, abandoned with StoreDeadlineError after `deadlineMs`: the bound the service promises (how
 * long until a 503). The driver's own timeouts each bound one step of one attempt (see
 * clientOptions), and it retries a failed attempt once with fresh timers, so only a bound on the
 * whole call holds. The work is not cancelled: on the server `maxTimeMS` bounds it (serverBound),
 * and its late outcome is dropped.
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
