import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { shownLines, skipReasons, totalOf } from './test-output.js'

/**
 * The last step of `npm test`: every test file under c8, then the coverage table and its
 * thresholds, then the verdict where a reader looks, on the last lines: how many tests passed,
 * failed and were skipped, and which suites could not run here and why. Arguments are passed to
 * uvu: `node dist/scripts/run-tests.js http` runs only the test files whose path matches `http`.
 */
const ROOT = resolve(__dirname, '../..')
const bin = (name: string): string => resolve(ROOT, 'node_modules/.bin', name)

/**
 * Runs a command, streaming its output through line by line, and resolves with its exit code and
 * all it printed. Skip lines are held back: the verdict lists each reason once.
 */
const run = (command: string, args: ReadonlyArray<string>): Promise<{ code: number; output: string }> =>
  new Promise((done) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    let pending = ''
    const pass = (lines: ReadonlyArray<string>): void => {
      process.stdout.write(shownLines(lines).join(''))
    }
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (text: string) => {
      output += text
      const lines = (pending + text).split(/(?<=\n)/)
      pending = lines.at(-1)?.endsWith('\n') === true ? '' : (lines.pop() ?? '')
      pass(lines)
    })
    child.on('close', (code) => {
      pass([pending])
      done({ code: code ?? 1, output })
    })
  })

const main = async (): Promise<void> => {
  // Only test files, of those whose path matches the argument when one is given.
  const pattern = `(?:${process.argv[2] ?? ''}).*\\.test\\.js$`
  // uvu colours by default, even into a file or a pipe; only a terminal gets colours.
  const colour = process.stdout.isTTY ? [] : ['--no-color']
  const tests = await run(bin('c8'), ['--reporter=none', '--check-coverage=false', bin('uvu'), 'dist/test', pattern, ...colour])
  const coverage = process.argv[2] === undefined ? await run(bin('c8'), ['report']) : { code: 0, output: '' }
  const total = totalOf(tests.output, 'Total')
  const passed = totalOf(tests.output, 'Passed')
  const skipped = totalOf(tests.output, 'Skipped')
  // uvu's Total counts the tests that ran; skipped ones are apart.
  const failed = tests.code === 0 ? total - passed : Math.max(1, total - passed)
  const lines = [
    '',
    '─'.repeat(72),
    ...skipReasons(tests.output),
    ...(coverage.code === 0 ? [] : ['coverage: below the thresholds of .c8rc.json (see the table above)']),
    `npm test: ${passed} passed, ${failed} failed, ${skipped} skipped${tests.code === 0 && coverage.code === 0 ? '' : ' (FAILED)'}`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  process.exit(tests.code === 0 && coverage.code === 0 ? 0 : 1)
}

void main()
