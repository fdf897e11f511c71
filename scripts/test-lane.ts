import { run } from 'uvu/run'

/**
 * One lane of run-tests.ts: a process that runs the test files its parent sends, one at a time,
 * with uvu's programmatic runner. A lane loads the modules and builds its contract checkers once for
 * every file it runs, and asks for the next file only when it is free, so the lanes end together
 * however long each file takes. Each file prints uvu's block and totals; run-tests.ts sums them.
 */

declare global {
  // uvu's queue of the suites of the files loaded since its last run (uvu/dist/index.js); uvu
  // makes it when uvu/run first loads it.
  var UVU_QUEUE: unknown[] | undefined
}

/** What run-tests.ts sends: a file to run (its path under test/, and where it is), or that none is left. */
export type LaneFile = { readonly name: string; readonly file: string } | { readonly done: true }

let failed = false

const ask = (): void => {
  process.send?.('next')
}

process.on('message', (next: LaneFile) => {
  if ('done' in next) {
    process.exitCode = failed ? 1 : 0
    process.disconnect()
    return
  }
  // uvu keeps what it ran in its queue: without this, the next run would run this file again.
  globalThis.UVU_QUEUE?.splice(0)
  void run([next])
    .then(
      () => {
        failed ||= process.exitCode === 1
      },
      // A file that cannot even be loaded fails the run, and the lane goes on with the next one.
      (error: unknown) => {
        failed = true
        console.error(`${next.name}: ${String(error)}`)
      },
    )
    .finally(ask)
})

ask()
