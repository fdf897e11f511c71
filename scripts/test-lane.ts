import { run } from 'uvu/run'

/**
 * One lane of run-tests.ts: a process that runs the test files named on its command line (each its
 * path under test/, then where it is) with uvu's programmatic runner, `uvu/run`, once, as uvu's own
 * CLI does: it loads the modules and builds its contract checkers once for all its files, and prints
 * uvu's block of each suite and its totals; run-tests.ts sums them. A file that cannot be loaded
 * fails the lane.
 */
const [, , ...argv] = process.argv
const files = Array.from({ length: argv.length / 2 }, (_, index) => ({ name: argv[2 * index] ?? '', file: argv[2 * index + 1] ?? '' }))

run(files).catch((error: unknown) => {
  process.exitCode = 1
  console.error(String(error))
})
