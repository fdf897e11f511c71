import pino, { type Logger } from 'pino'

export interface CapturedLogger {
  readonly logger: Logger
  /** Every line written so far, parsed. */
  readonly lines: () => ReadonlyArray<Record<string, unknown>>
  /** Everything written so far, as written. */
  readonly raw: () => string
}

/** A real pino logger at the most verbose level whose output stays in memory for assertions. */
export const capturedLogger = (): CapturedLogger => {
  let output = ''
  const logger = pino({ level: 'trace' }, { write: (line: string) => void (output += line) })
  return {
    logger,
    raw: () => output,
    lines: () =>
      output
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  }
}
