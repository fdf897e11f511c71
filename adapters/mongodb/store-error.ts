import * as E from 'fp-ts/Either'
import * as TE from 'fp-ts/TaskEither'
import { type StoreUnavailable, storeUnavailable } from '../../src/domain/errors.js'

/** Any driver failure (no server, timeout, write concern) becomes StoreUnavailable with a loggable detail. */
export const toStoreUnavailable =
  (operation: string) =>
  (error: unknown): StoreUnavailable => {
    const name = error instanceof Error ? error.name : 'Error'
    const message = error instanceof Error ? error.message : String(error)
    return storeUnavailable(`${operation}: ${name}: ${message}`.slice(0, 500))
  }

/** A stored document that failed to decode (its problem in `Left`) is a store failure too. */
export const fromStored = <A>(result: E.Either<string, A>): TE.TaskEither<StoreUnavailable, A> =>
  TE.fromEither(E.mapLeft(storeUnavailable)(result))
