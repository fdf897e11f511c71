import { listed, RETRY_AFTER_SECONDS } from '../http/error-response.js'
import { type ExtensionFailure, extensionFailure } from '../http/http-failures.js'
import { rateLimitField } from '../http/ratelimit-fields.js'

// The test target's own failures, each answered in its words through the HTTP adapter's one error
// mapping (error-response.ts) as an ErrorAnswer: its name in the log line, its status, its code (one
// of those the test target's part of the contract adds) and its message.

/** The statuses a client may force, with `Prefer: fault=<status>` or a rule of its sandbox's fault script. */
export const FORCED_STATUSES = [429, 500, 502, 503, 504] as const
export type ForcedStatus = (typeof FORCED_STATUSES)[number]
/** Who asked for a fault: the request (`Prefer`), or the sandbox's fault script. */
export type FaultSource = 'prefer' | 'script'

/** Seconds a forced 429 asks a client to wait: short, so that a client's retry test runs quickly. */
const FORCED_RETRY_AFTER_SECONDS = 1

/**
 * A forced failure: the code and headers of the real failure, with the `Retry-After` asked for, and
 * a message that says it was forced, so that nobody reading it hunts for a real cause.
 */
export const forcedFailure = (status: ForcedStatus, by: FaultSource, retryAfterSeconds?: number): ExtensionFailure => {
  const forced = by === 'prefer' ? `forced by 'Prefer: fault=${status}'` : `forced by the sandbox's fault script (fault ${status})`
  const answer = (code: string, message: string, headers: Readonly<Record<string, string>> = {}): ExtensionFailure =>
    extensionFailure({ name: 'ForcedFailure', status, code, message: `${forced}: ${message}`, headers })
  switch (status) {
    case 429: {
      const seconds = retryAfterSeconds ?? FORCED_RETRY_AFTER_SECONDS
      return answer('rate_limited', `too many requests; retry in ${seconds} s`, {
        'Retry-After': String(seconds),
        RateLimit: rateLimitField(0, seconds),
      })
    }
    case 500:
      return answer('internal_error', 'an unexpected error')
    case 502:
      return answer('bad_gateway', 'a gateway in front of the pet store got no valid answer')
    case 503:
      return answer('service_unavailable', 'the pet store is unavailable; retry later', {
        'Retry-After': String(retryAfterSeconds ?? RETRY_AFTER_SECONDS),
      })
    case 504:
      return answer('gateway_timeout', 'a gateway in front of the pet store got no answer in time')
  }
}

export const invalidFaultScript = (problems: ReadonlyArray<string>): ExtensionFailure =>
  extensionFailure({ name: 'InvalidFaultScript', status: 400, code: 'invalid_body', message: `invalid fault script: ${listed(problems)}` })

export const invalidClockAdvance = (problems: ReadonlyArray<string>): ExtensionFailure =>
  extensionFailure({
    name: 'InvalidClockAdvance',
    status: 400,
    code: 'invalid_body',
    message: `invalid clock advance: ${listed(problems)}`,
  })

/** No sandbox was made: `max` made ones are open; the least recently used ends in `retryAfterSeconds` unless it is used. */
export const sandboxLimitReached = (max: number, retryAfterSeconds: number): ExtensionFailure =>
  extensionFailure({
    name: 'SandboxLimitReached',
    status: 503,
    code: 'sandbox_limit_reached',
    message:
      `${max} sandboxes made at run time are open, as many as this instance holds: end one (DELETE /v1/sandbox), ` +
      `or retry in ${retryAfterSeconds} s, when the least recently used one expires unless it is used`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  })

/** The sandbox of a configured key, which lasts as long as the configuration: it can be reset, never ended. */
export const CONFIGURED_SANDBOX: ExtensionFailure = extensionFailure({
  name: 'ConfiguredSandbox',
  status: 409,
  code: 'sandbox_not_deletable',
  message:
    'this API key is configured, and its sandbox lasts as long as the configuration: reset it with POST /v1/sandbox/reset; ' +
    'DELETE /v1/sandbox ends the sandboxes made with POST /v1/sandboxes',
})

/** A create its sandbox's store had no room for (the store's StoreFull): nothing was stored. */
export const sandboxFull = (limitBytes: number): ExtensionFailure =>
  extensionFailure({
    name: 'StoreFull',
    status: 507,
    code: 'sandbox_full',
    message:
      `this sandbox holds as many pets and Idempotency-Key records as it may (${limitBytes} bytes of them): ` +
      'nothing was stored; reset it (POST /v1/sandbox/reset) to start again',
  })
