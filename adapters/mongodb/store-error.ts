import * as E from 'fp-ts/Either'
import * as TE from 'fp-ts/TaskEither'
import {
  MongoBulkWriteError,
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb'
import { type StoreError, type StoreFailed, storeFailed, storeUnavailable } from '../../src/domain/errors.js'
import { StoreDeadlineError } from './deadline.js'

/**
 * Server error codes of failures that pass by themselves: the driver's retryable codes (node
 * unreachable, not primary, recovering, shutting down: a failover or a restart), time limits (the
 * server's own `maxTimeMS` and write-concern bounds) and transient contention. Numbers as in the
 * server's error_codes.yml; the driver keeps most of them in MONGODB_ERROR_CODES, not exported.
 */
const TRANSIENT_CODES = new Set<number>([
  6, // HostUnreachable
  7, // HostNotFound
  24, // LockTimeout
  46, // LockBusy
  50, // MaxTimeMSExpired: the operation's server-side bound passed
  63, // StaleShardVersion
  64, // WriteConcernTimeout (WriteConcernFailed before 8.1): wtimeout passed
  89, // NetworkTimeout
  91, // ShutdownInProgress
  112, // WriteConflict
  133, // FailedToSatisfyReadPreference
  134, // ReadConcernMajorityNotAvailableYet
  150, // StaleEpoch
  189, // PrimarySteppedDown
  202, // NetworkInterfaceExceededTimeLimit: a server's own call to another member timed out
  262, // ExceededTimeLimit
  365, // TemporarilyUnavailable: the server asks to be tried again (storage engine cache pressure)
  9001, // SocketException
  10058, // LegacyNotPrimary
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11601, // Interrupted: the operation was killed (killOp, a killed session), not refused
  11602, // InterruptedDueToReplStateChange
  13388, // StaleConfig
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
])

/** Labels by which the server or the driver says that trying again may succeed. */
const TRANSIENT_LABELS: ReadonlyArray<string> = [
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.RetryableError,
  MongoErrorLabel.SystemOverloadedError,
  MongoErrorLabel.PoolRequestedRetry,
]

/** Driver errors of a pool or client that is busy or going away, whose classes the driver does not export. */
const TRANSIENT_NAMES: ReadonlyArray<string> = ['MongoWaitQueueTimeoutError', 'MongoPoolClosedError']

const codeOf = (error: MongoError): number | undefined => {
  // Number(): a code decoded with promoteValues=false is a BSON Int32.
  const code = Number(error.code)
  return Number.isInteger(code) ? code : undefined
}

/** The server refused a write for a unique index's sake (E11000). */
export const isDuplicateKey = (error: unknown): boolean => error instanceof MongoServerError && codeOf(error) === 11000

/**
 * The failure behind a bulk write's: the driver wraps every failure of a bulk write that is not a
 * write error (a network error, a server selection or wait-queue timeout) in MongoBulkWriteError,
 * keeping it as `errorResponse`; classified by that wrapper alone, each would look permanent.
 */
const unwrapped = (error: unknown): unknown =>
  error instanceof MongoBulkWriteError && error.errorResponse instanceof Error ? error.errorResponse : error

/**
 * DNS answers that pass (a `mongodb+srv://` look-up timed out, was refused or cancelled, or failed or
 * answered garbage at the server): Node's own errors (its dns module's codes), not MongoErrors.
 */
const TRANSIENT_DNS_CODES: ReadonlyArray<string> = [
  'ETIMEOUT',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ESERVFAIL',
  'EAI_AGAIN',
  'EREFUSED',
  'ECANCELLED',
  'EBADRESP',
]

const nodeFields = (error: unknown): { readonly code?: unknown; readonly syscall?: unknown } =>
  typeof error === 'object' && error !== null ? error : {}

const isTransientDns = (error: unknown): boolean => {
  const { code, syscall } = nodeFields(error)
  return (
    typeof syscall === 'string' && /^(?:query|getaddrinfo)/.test(syscall) && typeof code === 'string' && TRANSIENT_DNS_CODES.includes(code)
  )
}

/** TLS failures that persist until someone changes a setting or a certificate: a handshake with a plain server, a certificate refused. */
const PERMANENT_TLS_CODES: ReadonlyArray<string> = [
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]

/** The error and the errors behind it (`cause`), nearest first. */
const causesOf = (error: unknown): ReadonlyArray<unknown> =>
  error instanceof Error && error.cause !== undefined ? [error, ...causesOf(error.cause)] : [error]

/**
 * A server selection that fails for a setting, not for a while: the TLS handshake was refused (a
 * `tls` option that does not match the server, a certificate not trusted or for another name), or
 * every server found belongs to another replica set than the URI's `replicaSet` (the driver drops
 * them from the topology, leaving none). The driver reports both as a selection timeout.
 */
const isMisconfigured = (error: MongoServerSelectionError): boolean => {
  const tls = causesOf(error).some((cause) => {
    const { code } = nodeFields(cause)
    return typeof code === 'string' && (code.startsWith('ERR_SSL_') || PERMANENT_TLS_CODES.includes(code))
  })
  const { reason } = error
  return tls || (reason !== undefined && reason.setName !== null && reason.servers.size === 0)
}

/**
 * Whether a failure passes by itself, so that "retry later" (503) is the truth. Everything it
 * does not name, including errors that are no MongoError at all (a bug) and server errors such as
 * refused credentials (18, 13), an invalid namespace (73), an impossible write concern (100, 79)
 * or a duplicate key nobody expected, is permanent until someone acts.
 */
export const isTransient = (failure: unknown): boolean => {
  const error = unwrapped(failure)
  if (error instanceof StoreDeadlineError || isTransientDns(error)) return true
  if (!(error instanceof MongoError)) return false
  if (error instanceof MongoServerSelectionError && isMisconfigured(error)) return false
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoNotConnectedError ||
    TRANSIENT_NAMES.includes(error.name)
  ) {
    return true
  }
  const code = codeOf(error)
  return (code !== undefined && TRANSIENT_CODES.has(code)) || TRANSIENT_LABELS.some((label) => error.hasErrorLabel(label))
}

/** One log-ready line: what the service was doing, the error's class and code, and its message. */
export const describeFailure = (operation: string, failure: unknown): string => {
  const error = unwrapped(failure)
  const name = error instanceof Error ? error.name : 'Error'
  const code = error instanceof MongoError ? codeOf(error) : undefined
  const codeName = error instanceof MongoError && 'codeName' in error && typeof error.codeName === 'string' ? ` ${error.codeName}` : ''
  const message = error instanceof Error ? error.message : String(error)
  const hint =
    error instanceof MongoServerSelectionError && isMisconfigured(error)
      ? ' (a setting does not match the server: check the tls options and replicaSet of MONGODB_URI)'
      : ''
  return `${operation}: ${name}${code === undefined ? '' : ` (code ${code}${codeName})`}: ${message}${hint}`.slice(0, 500)
}

/** Any failure of a driver call becomes a StoreError: StoreUnavailable when it passes, StoreFailed otherwise. */
export const toStoreError =
  (operation: string) =>
  (error: unknown): StoreError =>
    isTransient(error) ? storeUnavailable(describeFailure(operation, error)) : storeFailed(describeFailure(operation, error))

/**
 * A stored document that failed to decode (its problem in `Left`) was not written by this service:
 * retrying reads it again, so it is StoreFailed, for an operator to fix the document.
 */
export const fromStored = <A>(result: E.Either<string, A>): TE.TaskEither<StoreFailed, A> => TE.fromEither(E.mapLeft(storeFailed)(result))
