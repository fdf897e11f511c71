/**
 * Everything the core can report, as values. The HTTP adapter maps each tag to a status in one
 * exhaustive switch, so adding a tag here fails compilation until it is mapped.
 */
export type InvalidPet = { readonly _tag: 'InvalidPet'; readonly problems: ReadonlyArray<string> }
export type InvalidParameter = { readonly _tag: 'InvalidParameter'; readonly problems: ReadonlyArray<string> }
export type PetNotFound = { readonly _tag: 'PetNotFound'; readonly id: string }
/** missing: no credential; malformed: not `Bearer <key>`; invalid: a well-formed key that is not valid. */
type UnauthorizedReason = 'missing' | 'malformed' | 'invalid'
export type Unauthorized = { readonly _tag: 'Unauthorized'; readonly reason: UnauthorizedReason }
/**
 * The store did not answer in time, or failed in a way that passes (no server, network, failover,
 * shutdown): a retry later may succeed. `detail` is for the server log, never for clients.
 */
type StoreUnavailable = { readonly _tag: 'StoreUnavailable'; readonly detail: string }
/**
 * The store failed in a way no retry fixes until someone acts: refused credentials, a setting the
 * server rejects, a stored document that is not what the service wrote, a bug. `detail` tells the
 * operator what to fix; it goes to the server log, never to clients.
 */
export type StoreFailed = { readonly _tag: 'StoreFailed'; readonly detail: string }
/**
 * The data set holds as much as it may (a bounded one, at its bound): nothing was written, and a
 * retry fails the same until something is freed (the data set reset). `limitBytes`
 * is what it may hold; `detail` is for the server log.
 */
export type StoreFull = { readonly _tag: 'StoreFull'; readonly limitBytes: number; readonly detail: string }
/** What any store call may fail with. */
export type StoreError = StoreUnavailable | StoreFailed | StoreFull

/** The idempotency key was used before with a different request body. */
export type IdempotencyKeyMismatch = { readonly _tag: 'IdempotencyKeyMismatch' }
/** A request with this idempotency key is still being processed. */
export type IdempotencyKeyInUse = { readonly _tag: 'IdempotencyKeyInUse' }

export type DomainError =
  | InvalidPet
  | InvalidParameter
  | PetNotFound
  | Unauthorized
  | StoreUnavailable
  | StoreFailed
  | StoreFull
  | IdempotencyKeyMismatch
  | IdempotencyKeyInUse

export const invalidPet = (problems: ReadonlyArray<string>): InvalidPet => ({ _tag: 'InvalidPet', problems })
export const invalidParameter = (problems: ReadonlyArray<string>): InvalidParameter => ({
  _tag: 'InvalidParameter',
  problems,
})
export const petNotFound = (id: string): PetNotFound => ({ _tag: 'PetNotFound', id })
export const unauthorized = (reason: UnauthorizedReason): Unauthorized => ({ _tag: 'Unauthorized', reason })
export const storeUnavailable = (detail: string): StoreUnavailable => ({ _tag: 'StoreUnavailable', detail })
export const storeFailed = (detail: string): StoreFailed => ({ _tag: 'StoreFailed', detail })
export const storeFull = (limitBytes: number): StoreFull => ({
  _tag: 'StoreFull',
  limitBytes,
  detail: `the data set holds as much as it may (${limitBytes} bytes)`,
})
export const idempotencyKeyMismatch: IdempotencyKeyMismatch = { _tag: 'IdempotencyKeyMismatch' }
export const idempotencyKeyInUse: IdempotencyKeyInUse = { _tag: 'IdempotencyKeyInUse' }
