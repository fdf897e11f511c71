/**
 * How figures are printed, and the summary: each part adds its figures beside their targets, and the
 * run ends with them in one table. Figures only: nothing here passes or fails (docs/performance.md).
 */
export const pad = (value: number | string, width = 9, digits = 0): string =>
  (typeof value === 'number' ? (Number.isFinite(value) ? value.toFixed(digits) : '—') : value).padStart(width)

/** Whether a figure meets its target, as printed beside it: `met` or `NOT met`. */
export const verdict = (met: boolean): string => (met ? 'met' : 'NOT met')

/** A difference with its sign: `+1.2`, `-0.3`. */
export const signed = (value: number): string => `${value < 0 ? '' : '+'}${value.toFixed(1)}`

/** A ratio as printed in the summary: `0.42`, or `—` when it could not be measured. */
export const ratioText = (value: number, digits = 2): string => (Number.isFinite(value) ? value.toFixed(digits) : '—')

interface Line {
  readonly target: string
  readonly figures: string
  /** Undefined: not measured in this run (the part was not chosen, or skipped). */
  readonly met: boolean | undefined
}

const lines: Line[] = []

/** Adds one target to the summary: its figures, and whether every one of them meets it (`meets` the figure of each endpoint, by its index). */
export const summarise = (
  target: string,
  figures: ReadonlyArray<number>,
  meets: (figure: number, index: number) => boolean,
  digits = 2,
  unit = '',
): void => {
  const measured = figures.every(Number.isFinite)
  lines.push({
    target,
    figures: figures.map((figure) => `${ratioText(figure, digits)}${unit}`).join(', '),
    met: measured && figures.length > 0 ? figures.every((figure, index) => meets(figure, index)) : undefined,
  })
}

/** Adds a line without a verdict: figures with no target, or the reason a target could not be measured. */
export const summariseText = (target: string, text: string): void => void lines.push({ target, figures: text, met: undefined })

export const printSummary = (): void => {
  if (lines.length === 0) return
  const width = Math.max(...lines.map((line) => line.target.length))
  console.log('\nSummary: each figure beside its target (endpoints in the order list, list status=sold, get, create)')
  console.log(`${'target'.padEnd(width)}  ${'met?'.padEnd(7)}  this run`)
  for (const line of lines) {
    const met = line.met === undefined ? '—' : line.met ? 'yes' : 'NO'
    console.log(`${line.target.padEnd(width)}  ${met.padEnd(7)}  ${line.figures}`)
  }
}
