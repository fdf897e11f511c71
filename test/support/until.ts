/**
 * Resolves once `holds` is true, checking after each turn of the event loop: a test waits for what
 * the service does, never for a guessed time. Gives up (a failure naming `what`) after a generous
 * 60 s (a bound on a hang, far beyond what a busy machine takes), so that a broken service fails the test rather than hang the run.
 */
export const until = async (holds: () => boolean | Promise<boolean>, what: string): Promise<void> => {
  const giveUpAt = performance.now() + 60_000
  while (!(await holds())) {
    if (performance.now() > giveUpAt) throw new Error(`never happened: ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}
