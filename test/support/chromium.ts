import { existsSync } from 'node:fs'
import { skippedSuite } from './skipped-suite.js'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

/** Debian's Chromium (npm cannot download a browser here); CHROMIUM_PATH overrides the search. */
/**
 * How long a browser test waits for a page to show something: a bound on a hung page only. A wait
 * ends as soon as the page shows it, so the bound costs nothing when the test passes, and it is far
 * beyond what a busy machine takes to fetch and render (the tests run beside other work).
 */
export const SHOWN_WITHIN_MS = 60_000

export const findChromium = (): string | undefined => {
  const configured = process.env.CHROMIUM_PATH
  if (configured !== undefined && configured !== '') return existsSync(configured) ? configured : undefined
  return CANDIDATES.find((path) => existsSync(path))
}

/**
 * Registers browser tests when Chromium is present. Without it they are skipped with one line saying
 * why, except with CI=true, where a missing browser is a failure: CI installs it (.ci/run).
 */
export const withChromium = (suiteName: string, register: (executablePath: string) => void, fail: (message: string) => void): void => {
  const executablePath = findChromium()
  if (executablePath !== undefined) return register(executablePath)
  const reason = "Chromium not found (install Debian's chromium or set CHROMIUM_PATH)"
  if (process.env.CI === 'true') fail(`${suiteName}: ${reason}`)
  else skippedSuite(suiteName, reason)
}
