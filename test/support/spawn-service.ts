import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'

/** What `npm start` and the `petstore-service` command run, compiled. */
export const MAIN = resolve(__dirname, '../../src/main/cli.js')
/** What `npm start` runs: compile when a source changed, then the service in the same process. */
export const START_SCRIPT = resolve(__dirname, '../../../scripts/start.mjs')
/**
 * Only a guard against a service that hangs without a word, so that the run fails instead of
 * hanging: far beyond any start or shutdown, however busy the machine. No test waits for it.
 */
const HANG_GUARD_MS = 60_000

export interface ServiceProcess {
  readonly child: ChildProcess
  /** Everything written so far. */
  readonly stdout: () => string
  readonly stderr: () => string
  /**
   * Resolves with the match once stdout holds `pattern` (a log line the service wrote, which it
   * flushes within 100 ms); rejects, with what it printed, if the process ends first.
   */
  readonly printed: (pattern: RegExp) => Promise<RegExpExecArray>
  /**
   * Resolves with the line the service writes on stderr once it listens, parsed; rejects, with what
   * it printed, if the process ends first.
   */
  readonly announced: () => Promise<Announcement>
  /** Resolves with the exit code once the process has ended and everything it printed has been read. */
  readonly exited: Promise<number | null>
}

/** The line on stderr saying where the service listens (docs/guides/client-developers.md). */
export interface Announcement {
  readonly event: 'listening'
  readonly url: string
  /** The key it generated, when it was given none. */
  readonly key?: string
}

/** A whole line on stderr that is a JSON object: the announcement is one, the banner's lines are not. */
const ANNOUNCEMENT = /^(\{.*\})\n/m

/**
 * Runs the composed service (`node dist/src/main/cli.js`, or another entry) with the given
 * environment and arguments; its standard input is empty, or with `stdin: 'pipe'` a pipe the test
 * holds (`child.stdin`).
 */
export const spawnService = (
  env: Record<string, string>,
  entry: string = MAIN,
  args: ReadonlyArray<string> = [],
  stdin: 'ignore' | 'pipe' = 'ignore',
): ServiceProcess => {
  const child = spawn(process.execPath, [entry, ...args], {
    env: { PATH: process.env.PATH ?? '', NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE ?? '', PORT: '0', ...env },
    stdio: [stdin, 'pipe', 'pipe'],
  })
  return watched(child)
}

/** A process whose output is kept, and watched for the lines a test waits for. */
export const watched = (child: ChildProcess): ServiceProcess => {
  let out = ''
  let err = ''
  let ended = false
  const watchers = new Set<() => void>()
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
    watchers.forEach((watch) => watch())
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8')
    watchers.forEach((watch) => watch())
  })
  // 'close', not 'exit': after 'exit' the last lines the process wrote may still be in the pipe.
  const exited = new Promise<number | null>((done) =>
    child.on('close', (code) => {
      ended = true
      watchers.forEach((watch) => watch())
      done(code)
    }),
  )
  /** Resolves once `pattern` is in what the process wrote to the stream `written` reads. */
  const shown = (written: () => string, pattern: RegExp, where: string): Promise<RegExpExecArray> =>
    new Promise((found, failed) => {
      const stop = (): void => {
        watchers.delete(watch)
        clearTimeout(guard)
      }
      const watch = (): void => {
        const match = pattern.exec(written())
        if (match !== null) {
          stop()
          found(match)
        } else if (ended) {
          stop()
          failed(new Error(`the service ended without printing ${String(pattern)} on ${where}:\n${out}\n${err}`))
        }
      }
      const guard = setTimeout(() => {
        stop()
        failed(new Error(`the service printed no ${String(pattern)} on ${where} in ${HANG_GUARD_MS} ms:\n${out}\n${err}`))
      }, HANG_GUARD_MS)
      watchers.add(watch)
      watch()
    })
  const printed = (pattern: RegExp): Promise<RegExpExecArray> => shown(() => out, pattern, 'stdout')
  const announced = async (): Promise<Announcement> => {
    const [, line = ''] = await shown(() => err, ANNOUNCEMENT, 'stderr')
    return JSON.parse(line) as Announcement
  }
  return { child, stdout: () => out, stderr: () => err, printed, announced, exited }
}

/** Waits for the start-up log line and returns the URL it announces. */
export const waitForUrl = async (service: ServiceProcess): Promise<string> => {
  const [, url = ''] = await service.printed(/"url":"(http:\/\/[^"]+)"/).catch((error: unknown) => {
    throw new Error(`the service did not start: ${(error as Error).message}`)
  })
  return url
}
