import * as E from 'fp-ts/Either'
import * as TE from 'fp-ts/TaskEither'
import { MongoBulkWriteError, MongoError, MongoErrorLabel, MongoNetworkError, MongoServerSelectionError } from 'mongodb'
import { type StoreError, type StoreFailed, storeFailed, storeUnavailable } from '../../src/domain/errors.js'
import type { MongoAccess } from './mongo-options.js'

/** A store call that outlived its bound: it passes (503), like any timeout. */
export class StoreDeadlineError extends Error {
  override readonly name = 'StoreDeadlineError'
}

/** `work`, abandoned after `deadlineMs` (the driver retries an attempt with fresh timers); its late outcome is dropped. */
export const withDeadline = <A>(deadlineMs: number, work: () => Promise<A>): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreDeadlineError(`no answer within ${deadlineMs} ms`)), deadlineMs)
  })
  return Promise.race([work(), expired]).finally(() => clearTimeout(timer))
}

/** Server codes that pass: the driver's retryable-read codes (RETRYABLE_READ_ERROR_CODES in its error.ts), maxTimeMS (50) and wtimeout (64). */
const PASSING_CODES = new Set([6, 7, 50, 64, 89, 91, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436])

const PASSING_LABELS = [MongoErrorLabel.RetryableWriteError, MongoErrorLabel.TransientTransactionError, MongoErrorLabel.RetryableError]

/** A bulk write wraps a failure that is no write error, keeping it as `errorResponse` (executeCommands in bulk/common.ts). */
const unwrapped = (error: unknown): unknown =>
  error instanceof MongoBulkWriteError && error.errorResponse instanceof Error ? error.errorResponse : error

/** Whether a failure passes by itself (503) or waits for someone to act (500): ADR 0702. Node's socket and DNS errors have a `syscall`. */
export const isTransient = (failure: unknown): boolean => {
  const error = unwrapped(failure)
  if (error instanceof StoreDeadlineError) return true
  if (!(error instanceof MongoError)) return typeof (error as { syscall?: unknown } | null)?.syscall === 'string'
  return (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    // The pool's checkout timeout, whose class (cmap/errors.ts) is not exported.
    error.name === 'MongoWaitQueueTimeoutError' ||
    PASSING_LABELS.some((label) => error.hasErrorLabel(label)) ||
    // Number(): a code decoded with promoteValues=false is a BSON Int32.
    PASSING_CODES.has(Number(error.code))
  )
}

/** One log-ready line: what the service was doing, the error's class and code, and its message. */
export const describeFailure = (operation: string, failure: unknown): string => {
  const error = unwrapped(failure)
  if (!(error instanceof Error)) return `${operation}: Error: ${String(error)}`.slice(0, 500)
  const { code, codeName } = error as { readonly code?: number | string; readonly codeName?: unknown }
  const coded = code === undefined ? '' : ` (code ${code}${typeof codeName === 'string' ? ` ${codeName}` : ''})`
  return `${operation}: ${error.name}${coded}: ${error.message}`.slice(0, 500)
}

export const toStoreError =
  (operation: string) =>
  (error: unknown): StoreError =>
    (isTransient(error) ? storeUnavailable : storeFailed)(describeFailure(operation, error))

/** One port call of at most `roundTrips` round trips, abandoned after as many times T; a failure is a StoreError naming `operation`. */
export const mongoCall = <A>(access: MongoAccess, operation: string, work: () => Promise<A>, roundTrips = 1) =>
  TE.tryCatch(() => withDeadline(roundTrips * access.timeoutMs, work), toStoreError(operation))

/** A stored document that failed to decode was not written by this service: reading it again gives the same (500). */
export const fromStored = <A>(result: E.Either<string, A>): TE.TaskEither<StoreFailed, A> => TE.fromEither(E.mapLeft(storeFailed)(result))
