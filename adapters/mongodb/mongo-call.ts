import * as TE from 'fp-ts/TaskEither'
import type { StoreError } from '../../src/domain/errors.js'
import { withDeadline } from './deadline.js'
import type { MongoAccess } from './mongo-options.js'
import { toStoreError } from './store-error.js'

/**
 * One port call of a MongoDB adapter: `work` makes at most `roundTrips` round trips to the
 * database, so it is abandoned after that many times the access's timeout, and any failure becomes
 * a StoreError (503 when it passes, 500 when it does not) whose detail names `operation`.
 */
export const mongoCall = <A>(
  access: MongoAccess,
  operation: string,
  work: () => Promise<A>,
  roundTrips = 1,
): TE.TaskEither<StoreError, A> => TE.tryCatch(() => withDeadline(roundTrips * access.timeoutMs, work), toStoreError(operation))
