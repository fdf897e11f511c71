import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { resolve } from 'node:path'

/** What `npm start` and the `petstore-service` command run, compiled. */
export const MAIN = resolve(__dirname, '../../src/main/cli.js')
/** What `npm start` runs: compile when a source changed, then the service in the same process. */
export const START_SCRIPT = resolve(__dirname, '../../../scripts/start.mjs')
const START_TIMEOUT_MS = 10_000

export interface ServiceProcess {
  readonly child: ChildProcess
  /** Everything written so far. */
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>
}

/** Runs the composed service (`node dist/src/main/cli.js`, or another entry) with the given environment and arguments. */
export const spawnService = (env: Record<string, string>, entry: string = MAIN, args: ReadonlyArray<string> = []): ServiceProcess => {
  const child = spawn(process.execPath, [entry, ...args], {
    env: { PATH: process.env.PATH ?? '', NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return { child, stdout: () => out, stderr: () => err, exited }
}

/** Waits for the start-up log line and returns the URL it announces. */
export const waitForUrl = async (service: ServiceProcess): Promise<string> => {
  const deadline = Date.now() + START_TIMEOUT_MS
  while (Date.now() < deadline) {
    const match = /"url":"(http:\/\/[^"]+)"/.exec(service.stdout())
    if (match?.[1] !== undefined) return match[1]
    if (service.child.exitCode !== null) break
    await new Promise((done) => setTimeout(done, 25))
  }
  throw new Error(`the service did not start:\n${service.stdout()}\n${service.stderr()}`)
}
