/**
 * Calls `ended` once, when the process's standard input ends: its writer closed it, or the process
 * holding the other end exited, or reading it failed. What arrives on it is read and dropped, so
 * that a writer never blocks. This is how a harness stops a service it started through npx, which
 * passes no signal on.
 */
export const whenStdinEnds = (ended: () => void): void => {
  let called = false
  const once = (): void => {
    if (called) return
    called = true
    ended()
  }
  process.stdin.on('end', once).on('close', once).on('error', once).resume()
}
