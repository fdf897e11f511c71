import { suite } from 'uvu'

/**
 * A suite that cannot run on this machine (no mongod, no Chromium): one line saying why, and one
 * skipped test, so that the totals `npm test` ends with count it as skipped, never as passed.
 */
export const skippedSuite = (name: string, reason: string): void => {
  console.log(`${name}: skipped, ${reason}`)
  const skipped = suite(name)
  skipped.skip(`skipped: ${reason}`, () => undefined)
  skipped.run()
}
