import { safeIntegerText } from '../../src/domain/integer-text.js'
import { FAULT_NAMES, type FaultName, MAX_DELAY_MS, MAX_RETRY_AFTER_SECONDS } from './fault-rule.js'
import { parsePrefer } from './prefer.js'

/** What a request asks of this service in `Prefer`; a preference it does not understand is absent. */
export interface FaultPreferences {
  readonly delayMs?: number
  readonly fault?: FaultName
  readonly retryAfterSeconds?: number
}

const NOTHING_PREFERRED: FaultPreferences = {}

/**
 * `delay` (an integer from 0 to MAX_DELAY_MS, in the one integer syntax of the API), `fault` (429,
 * 500, 502, 503, 504, `reset`, `reset-after` or `truncated`) and `retry-after` (0 to
 * MAX_RETRY_AFTER_SECONDS). Any other preference, or one of these out of range,
 * is ignored, as RFC 7240 asks; a repeated one counts once, in its first occurrence.
 */
export const readFaultPreferences = (header: string | undefined): FaultPreferences => {
  // Most requests send no Prefer at all.
  if (header === undefined) return NOTHING_PREFERRED
  const preferences = parsePrefer(header)
  const delayMs = safeIntegerText(preferences.get('delay'), 0, MAX_DELAY_MS)
  const asked = preferences.get('fault')
  const fault = asked !== undefined && FAULT_NAMES.includes(asked) ? (asked as FaultName) : undefined
  const retryAfterSeconds = safeIntegerText(preferences.get('retry-after'), 0, MAX_RETRY_AFTER_SECONDS)
  return {
    ...(delayMs === undefined ? {} : { delayMs }),
    ...(fault === undefined ? {} : { fault }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  }
}
