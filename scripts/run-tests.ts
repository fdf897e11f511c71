import { type ChildProcess, fork, spawn } from 'node:child_process'
import { readdirSync, rmSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { PACKAGE_ROOT as ROOT } from '../src/package-root.js'
import { shownLines, skipReasons, totalOf } from './test-output.js'

/**
 * The last step of `npm test`: every test file, with coverage, beside the lint, format and link
 * checks, then the coverage table and its thresholds, then the verdict where a reader looks, on the
 * last lines: how many tests passed, failed and were skipped, and which suites could not run here
 * and why. An argument picks the test files whose path under test/ matches it, without coverage
 * or checks: `node dist/scripts/run-tests.js http`. Run from its TypeScript source by tsx
 * (`npm run test:fast`), it runs the test sources, so no build comes first.
 */
const FROM_SOURCE = __filename.endsWith('.ts')
const TESTS = FROM_SOURCE ? resolve(ROOT, 'test') : resolve(ROOT, 'dist/test')
/** c8 reads what every process wrote here (Node writes it wherever NODE_V8_COVERAGE points). */
const COVERAGE = resolve(ROOT, 'coverage/tmp')
const bin = (name: string): string => resolve(ROOT, 'node_modules/.bin', name)

interface Finished {
  readonly code: number
  readonly output: string
}

/** The exit code of a child and all it printed, held back so that parallel runs never interleave. */
const finishedOf = (child: ChildProcess): Promise<Finished> =>
  new Promise((done) => {
    let output = ''
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text))
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text))
    child.on('close', (code) => done({ code: code ?? 1, output }))
  })

/** Runs a command and resolves with its exit code and all it printed. */
const run = (command: string, args: ReadonlyArray<string>): Promise<Finished> =>
  finishedOf(spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }))

/** Shows what a finished run printed, but its skip lines: the verdict lists each reason once. */
const show = (finished: Finished): Finished => {
  process.stdout.write(shownLines(finished.output.split(/(?<=\n)/)).join(''))
  return finished
}

/** The test files to run, relative to TESTS, largest first (a rough measure of how long each takes). */
const testFiles = (pattern: RegExp): ReadonlyArray<string> =>
  readdirSync(TESTS, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => pattern.test(file))
    .map((file) => ({ file, size: statSync(join(TESTS, file)).size }))
    .sort((a, b) => b.size - a.size)
    .map(({ file }) => file)

/**
 * Deals the files (largest first) to `lanes` lanes, each to the lane with the fewest bytes of test
 * so far (file size being a rough measure of how long a file takes), so that the lanes end at about
 * the same time.
 */
const dealt = (files: ReadonlyArray<string>, lanes: number): ReadonlyArray<ReadonlyArray<string>> => {
  const dealing = Array.from({ length: Math.min(lanes, files.length) }, () => ({ bytes: 0, files: [] as string[] }))
  for (const file of files) {
    const lightest = dealing.reduce((least, lane) => (lane.bytes < least.bytes ? lane : least))
    lightest.bytes += statSync(join(TESTS, file)).size
    lightest.files.push(file)
  }
  return dealing.map((lane) => lane.files)
}

/** Runs the files in `lanes` processes (scripts/test-lane.ts) at once; resolves with what each printed. */
const runLanes = async (files: ReadonlyArray<string>, lanes: number, env: NodeJS.ProcessEnv): Promise<Finished[]> => {
  const loader = FROM_SOURCE ? ['--import', 'tsx'] : []
  const script = resolve(__dirname, `test-lane.${FROM_SOURCE ? 'ts' : 'js'}`)
  const lane = async (share: ReadonlyArray<string>): Promise<Finished> =>
    show(
      await finishedOf(
        fork(script, [...share.flatMap((file) => [file, join(TESTS, file)])], {
          cwd: ROOT,
          env,
          execArgv: loader,
          stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        }),
      ),
    )
  return Promise.all(dealt(files, lanes).map(lane))
}

/**
 * Test files run after the others, alone: a browser is the heaviest thing a test starts, and its
 * page is the slowest to answer while the other suites keep both cores busy.
 */
const APART = /^browser\//

/** The checks `npm test` runs beside the tests, each as its npm script says. */
const CHECKS = ['lint', 'format:check', 'docs:check']

const main = async (): Promise<void> => {
  const selection = process.argv[2]
  const full = selection === undefined
  const files = testFiles(new RegExp(`(?:${selection ?? ''}).*\\.test\\.${FROM_SOURCE ? 'ts' : 'js'}$`))
  const lanes = Math.max(2, availableParallelism())
  rmSync(COVERAGE, { recursive: true, force: true })
  const env = full ? { ...process.env, NODE_V8_COVERAGE: COVERAGE } : process.env
  const apart = files.filter((file) => APART.test(file))
  const [together, checks] = await Promise.all([
    runLanes(
      files.filter((file) => !APART.test(file)),
      lanes,
      env,
    ),
    // The checks wait on nothing the tests do, so they run in the time the tests spend waiting.
    full ? Promise.all(CHECKS.map(async (check) => ({ check, ...show(await run('npm', ['run', '--silent', check])) }))) : [],
  ])
  const results = [...together, ...(await runLanes(apart, 1, env))]
  const coverage = full ? show(await run(bin('c8'), ['report'])) : { code: 0, output: '' }
  const output = results.map((result) => result.output).join('')
  const testsPassed = results.every((result) => result.code === 0)
  const failedChecks = checks.filter((check) => check.code !== 0).map((check) => check.check)
  const total = totalOf(output, 'Total')
  const passed = totalOf(output, 'Passed')
  const skipped = totalOf(output, 'Skipped')
  // uvu's Total counts the tests that ran; skipped ones are apart.
  const failed = testsPassed ? total - passed : Math.max(1, total - passed)
  const ok = testsPassed && coverage.code === 0 && failedChecks.length === 0
  const lines = [
    '',
    '─'.repeat(72),
    ...skipReasons(output),
    ...failedChecks.map((check) => `npm run ${check}: failed (see its output above)`),
    ...(coverage.code === 0 ? [] : ['coverage: below the thresholds of .c8rc.json (see the table above)']),
    `npm test: ${passed} passed, ${failed} failed, ${skipped} skipped${ok ? '' : ' (FAILED)'}`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  process.exit(ok ? 0 : 1)
}

void main()
