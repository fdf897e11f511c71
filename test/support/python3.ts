import { spawnSync } from 'node:child_process'
import { skippedSuite } from './skipped-suite.js'

const PYTHON3 = 'python3'

/**
 * Registers tests that run Python code when `python3` is on the PATH. Without it they are skipped
 * with one line saying why, except with CI=true, where a missing python3 is a failure: GitHub's
 * runners have it.
 */
export const withPython3 = (suiteName: string, register: (python3: string) => void, fail: (message: string) => void): void => {
  if (spawnSync(PYTHON3, ['--version'], { stdio: 'ignore' }).status === 0) return register(PYTHON3)
  const reason = 'python3 not found on the PATH'
  if (process.env.CI === 'true') fail(`${suiteName}: ${reason}`)
  else skippedSuite(suiteName, reason)
}
