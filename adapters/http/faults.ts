import type { Middleware } from 'koa'
import { parseIntegerText } from '../../src/domain/integer-text.js'
import { sendFailure } from './error-response.js'
import { FORCED_STATUSES, type ForcedStatus, forcedFailure } from './http-failures.js'
import { parsePrefer } from './prefer.js'

/** The longest delay a client may ask for with `Prefer: delay=<milliseconds>`. */
export const MAX_DELAY_MS = 10_000

/** What a request asks of this service in `Prefer`; a preference it does not understand is absent. */
export interface FaultPreferences {
  readonly delayMs?: number
  readonly fault?: ForcedStatus
}

const delayOf = (value: string | undefined): number | undefined => {
  const delay = value === undefined ? undefined : parseIntegerText(value)
  return delay !== undefined && delay >= 0n && delay <= BigInt(MAX_DELAY_MS) ? Number(delay) : undefined
}

const faultOf = (value: string | undefined): ForcedStatus | undefined => FORCED_STATUSES.find((status) => String(status) === value)

/**
 * `delay` (an integer from 0 to MAX_DELAY_MS, in the one integer syntax of the API) and `fault`
 * (429, 500 or 503). Any other preference, or one of these out of range, is ignored, as RFC 7240
 * asks; a repeated one counts once, in its first occurrence.
 */
export const readFaultPreferences = (header: string | undefined): FaultPreferences => {
  const preferences = parsePrefer(header)
  const delayMs = delayOf(preferences.get('delay'))
  const fault = faultOf(preferences.get('fault'))
  return { ...(delayMs === undefined ? {} : { delayMs }), ...(fault === undefined ? {} : { fault }) }
}

export interface FaultsOptions {
  /** Aborted when shutdown begins: a delay still running ends then, and none starts after. */
  readonly shutdown?: AbortSignal
}

/**
 * Forced failures and delays for client developers (PETSTORE_FAULTS=on), on the routes it is placed
 * on, which run after authentication and the rate limit, and before the body is read: a forced
 * failure reads no body, claims no Idempotency-Key and touches no store. The delay comes first,
 * then the failure or the normal answer. `Preference-Applied` lists what was applied, delay first.
 * A delay cut short by shutdown was not applied, so it is not listed.
 */
export const faults = ({ shutdown }: FaultsOptions = {}): Middleware => {
  // One listener on the signal for every delay in progress, however many there are.
  const cuts = new Set<() => void>()
  shutdown?.addEventListener('abort', () => cuts.forEach((cut) => cut()), { once: true })
  /** Resolves true when the whole delay passed, false when shutdown cut it short. */
  const wait = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (shutdown?.aborted === true) return resolve(false)
      const timer = setTimeout(() => {
        cuts.delete(cut)
        resolve(true)
      }, ms)
      const cut = (): void => {
        clearTimeout(timer)
        cuts.delete(cut)
        resolve(false)
      }
      cuts.add(cut)
    })

  return async (ctx, next) => {
    const { delayMs, fault } = readFaultPreferences(ctx.get('Prefer') || undefined)
    const delayed = delayMs !== undefined && (await wait(delayMs))
    const applied = [...(delayed ? [`delay=${delayMs}`] : []), ...(fault === undefined ? [] : [`fault=${fault}`])]
    if (applied.length > 0) ctx.set('Preference-Applied', applied.join(', '))
    if (fault !== undefined) return sendFailure(ctx, forcedFailure(fault))
    await next()
  }
}
