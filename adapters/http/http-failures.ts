/** No sandbox was made: `max` made ones are open; the least recently used ends in `retryAfterSeconds` unless it is used. */
export interface SandboxLimitReached {
  readonly _tag: 'SandboxLimitReached'
  readonly max: number
  readonly retryAfterSeconds: number
}

/** The sandbox of a configured key, which lasts as long as the configuration: it can be reset, never ended. */
export interface ConfiguredSandbox {
  readonly _tag: 'ConfiguredSandbox'
}

/**
 * Failures that happen in HTTP before the domain is reached (unreadable body, unknown route, ...),
 * and the sandboxes' own. They are mapped to responses by error-response.ts, beside the DomainError tags.
 */
export type HttpFailure =
  | { readonly _tag: 'MalformedJson'; readonly problem: string }
  | { readonly _tag: 'UnsupportedMediaType'; readonly problem: string }
  | { readonly _tag: 'PayloadTooLarge'; readonly limitBytes: number }
  | { readonly _tag: 'RouteNotFound'; readonly method: string; readonly path: string }
  | { readonly _tag: 'MethodNotAllowed'; readonly method: string; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: 'InternalError' }
  | { readonly _tag: 'RateLimited'; readonly retryAfterSeconds: number }
  | { readonly _tag: 'RequestTimeout' }
  | { readonly _tag: 'HeadersTooLarge' }
  | { readonly _tag: 'TooManyHeaderFields'; readonly max: number }
  | { readonly _tag: 'MalformedRequest' }
  | { readonly _tag: 'MissingHost' }
  | { readonly _tag: 'InvalidHost'; readonly problem: string }
  | { readonly _tag: 'ExpectationFailed' }
  | { readonly _tag: 'TunnelRefused' }
  | { readonly _tag: 'DuplicateAuthorization' }
  | { readonly _tag: 'InvalidFaultScript'; readonly problems: ReadonlyArray<string> }
  | { readonly _tag: 'InvalidClockAdvance'; readonly problems: ReadonlyArray<string> }
  | { readonly _tag: 'ForcedFailure'; readonly status: ForcedStatus; readonly by: FaultSource; readonly retryAfterSeconds?: number }
  | SandboxLimitReached
  | ConfiguredSandbox

/** The statuses a client may force with `Prefer: fault=<status>` with the test target on (PETSTORE_TEST_TARGET=on). */
export const FORCED_STATUSES = [429, 500, 503] as const
/** The statuses a client may force too when each key also has a sandbox (the test target's sandboxes). */
export const SANDBOX_FORCED_STATUSES = [429, 500, 502, 503, 504] as const
export type ForcedStatus = (typeof SANDBOX_FORCED_STATUSES)[number]
/** Who asked for a fault: the request (`Prefer`), or the sandbox's fault script. */
export type FaultSource = 'prefer' | 'script'

export const malformedJson = (problem: string): HttpFailure => ({ _tag: 'MalformedJson', problem })
export const unsupportedMediaType = (problem: string): HttpFailure => ({ _tag: 'UnsupportedMediaType', problem })
export const payloadTooLarge = (limitBytes: number): HttpFailure => ({ _tag: 'PayloadTooLarge', limitBytes })
export const routeNotFound = (method: string, path: string): HttpFailure => ({ _tag: 'RouteNotFound', method, path })
export const methodNotAllowed = (method: string, allow: ReadonlyArray<string>): HttpFailure => ({
  _tag: 'MethodNotAllowed',
  method,
  allow,
})
export const internalError: HttpFailure = { _tag: 'InternalError' }
export const requestTimeout: HttpFailure = { _tag: 'RequestTimeout' }
export const headersTooLarge: HttpFailure = { _tag: 'HeadersTooLarge' }
export const tooManyHeaderFields = (max: number): HttpFailure => ({ _tag: 'TooManyHeaderFields', max })
export const malformedRequest: HttpFailure = { _tag: 'MalformedRequest' }
export const missingHost: HttpFailure = { _tag: 'MissingHost' }
export const invalidHost = (problem: string): HttpFailure => ({ _tag: 'InvalidHost', problem })
export const expectationFailed: HttpFailure = { _tag: 'ExpectationFailed' }
export const tunnelRefused: HttpFailure = { _tag: 'TunnelRefused' }
export const duplicateAuthorization: HttpFailure = { _tag: 'DuplicateAuthorization' }
export const invalidFaultScript = (problems: ReadonlyArray<string>): HttpFailure => ({ _tag: 'InvalidFaultScript', problems })
export const invalidClockAdvance = (problems: ReadonlyArray<string>): HttpFailure => ({ _tag: 'InvalidClockAdvance', problems })
export const rateLimited = (retryAfterSeconds: number): HttpFailure => ({ _tag: 'RateLimited', retryAfterSeconds })
export const forcedFailure = (status: ForcedStatus, by: FaultSource = 'prefer', retryAfterSeconds?: number): HttpFailure =>
  retryAfterSeconds === undefined ? { _tag: 'ForcedFailure', status, by } : { _tag: 'ForcedFailure', status, by, retryAfterSeconds }
