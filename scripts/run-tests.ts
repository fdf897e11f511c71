import { spawn } from 'node:child_process'
import { resolve } from 'node:path'

/**
 * The last step of `npm test`: every test file under c8, then the coverage table and its
 * thresholds, then the verdict where a reader looks, on the last lines: how many tests passed,
 * failed and were skipped, and which suites could not run here and why. Arguments are passed to
 * uvu: `node dist/scripts/run-tests.js http` runs only the test files whose path matches `http`.
 */
const ROOT = resolve(__dirname, '../..')
const bin = (name: string): string => resolve(ROOT, 'node_modules/.bin', name)

/** Runs a command, streaming its output through, and resolves with its exit code and what it printed. */
const run = (command: string, args: ReadonlyArray<string>): Promise<{ code: number; output: string }> =>
  new Promise((done) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk)
      output += chunk.toString('utf8')
    })
    child.on('close', (code) => done({ code: code ?? 1, output }))
  })

// uvu colours its totals; the numbers are read without the escape codes.
const plain = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '')

/** Sums uvu's per-file totals (one uvu process runs every file, but prints one block per run). */
const totalOf = (output: string, label: string): number =>
  [...plain(output).matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0)

const main = async (): Promise<void> => {
  // Only test files, of those whose path matches the argument when one is given.
  const pattern = `(?:${process.argv[2] ?? ''}).*\\.test\\.js$`
  const tests = await run(bin('c8'), ['--reporter=none', '--check-coverage=false', bin('uvu'), 'dist/test', pattern])
  const coverage = process.argv[2] === undefined ? await run(bin('c8'), ['report']) : { code: 0, output: '' }
  const total = totalOf(tests.output, 'Total')
  const passed = totalOf(tests.output, 'Passed')
  const skipped = totalOf(tests.output, 'Skipped')
  // uvu's Total counts the tests that ran; skipped ones are apart.
  const failed = tests.code === 0 ? total - passed : Math.max(1, total - passed)
  const reasons = plain(tests.output)
    .split('\n')
    .filter((line) => /^[^\s].*: skipped, /.test(line))
    .map((line) => line.replace(': skipped, ', ': '))
  const lines = [
    '',
    '─'.repeat(72),
    ...reasons.map((reason) => `skipped: ${reason}`),
    ...(coverage.code === 0 ? [] : ['coverage: below the thresholds of .c8rc.json (see the table above)']),
    `npm test: ${passed} passed, ${failed} failed, ${skipped} skipped${tests.code === 0 && coverage.code === 0 ? '' : ' (FAILED)'}`,
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  process.exit(tests.code === 0 && coverage.code === 0 ? 0 : 1)
}

void main()
