import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { shownLines, skipReasons, totalOf } from '../../scripts/test-output.js'

const REASON = 'no mongod binary could be had (set MONGOMS_SYSTEM_BINARY)'

const Output = suite('npm test output: quiet and read without colours')

Output('each skip reason is shown once, after the suites it held back, and not while the tests stream', () => {
  const output = [
    'MongoDB repository tests: skipped, ' + REASON,
    'domain/pet.test.js',
    '\u001b[33mMongoDB seed tests: skipped, ' + REASON + '\u001b[39m',
    'Chromium tests: skipped, no chromium on PATH',
    '',
  ].join('\n')
  assert.equal(skipReasons(output), [
    `skipped: MongoDB repository tests, MongoDB seed tests: ${REASON}`,
    'skipped: Chromium tests: no chromium on PATH',
  ])
  assert.equal(shownLines(output.split(/(?<=\n)/)), ['domain/pet.test.js\n'])
})

Output('totals are summed over every file, with or without colour codes', () => {
  assert.is(totalOf('  Total:     3\n  Passed:    3\n\n  Total:\u001b[31m     4\n', 'Total'), 7)
})

Output.run()
