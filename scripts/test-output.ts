/**
 * How `npm test` reads and shows uvu's output (scripts/run-tests.ts): the totals it sums, the skip
 * lines it holds back while streaming, and the verdict's one line per skip reason.
 */

/** A suite's line saying why it cannot run here (test/support/skipped-suite.ts): `<suite>: skipped, <reason>`. */
const SKIP_LINE = /^([^\s].*?): skipped, (.*)$/

/** The text without terminal colour codes. */
const plain = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '')

/** The lines to stream through: every line but the skip lines, which the verdict lists. */
export const shownLines = (lines: ReadonlyArray<string>): ReadonlyArray<string> =>
  lines.filter((line) => !SKIP_LINE.test(plain(line).trimEnd()))

/** Sums uvu's per-file totals (one uvu process runs every file, but prints one block per run). */
export const totalOf = (output: string, label: string): number =>
  [...plain(output).matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0)

/** Each reason once, after the suites it held back: `skipped: A, B: reason`. */
export const skipReasons = (output: string): ReadonlyArray<string> => {
  const suitesByReason = new Map<string, string[]>()
  for (const line of plain(output).split('\n')) {
    const match = SKIP_LINE.exec(line.trimEnd())
    if (match?.[1] !== undefined && match[2] !== undefined)
      suitesByReason.set(match[2], [...(suitesByReason.get(match[2]) ?? []), match[1]])
  }
  return [...suitesByReason].map(([reason, suites]) => `skipped: ${suites.join(', ')}: ${reason}`)
}
