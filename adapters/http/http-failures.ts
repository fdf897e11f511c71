/**
 * A failure an extension answers in its own words: the Error body's status, code and message, the
 * headers that go with it, and its name in the request's log line (`failure`). Its code is one the
 * extension's part of the contract lists.
 */
export interface ErrorAnswer {
  readonly name: string
  readonly status: number
  readonly code: string
  readonly message: string
  readonly headers?: Readonly<Record<string, string>>
}

/** A failure an extension (extension.ts) answers in its own words. */
export interface ExtensionFailure {
  readonly _tag: 'ExtensionFailure'
  readonly answer: ErrorAnswer
}

/**
 * Failures that happen in HTTP before the domain is reached (unreadable body, unknown route, ...),
 * and an extension's. They are mapped to responses by error-response.ts, beside the DomainError tags.
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
  | ExtensionFailure

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
export const rateLimited = (retryAfterSeconds: number): HttpFailure => ({ _tag: 'RateLimited', retryAfterSeconds })
export const extensionFailure = (answer: ErrorAnswer): ExtensionFailure => ({ _tag: 'ExtensionFailure', answer })
