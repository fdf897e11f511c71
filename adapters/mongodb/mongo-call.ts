import * as TE from 'fp-ts/TaskEither'
import type { StoreError } from '../../src/domain/errors.js'
import { withDeadline } from './deadline.js'
import type { MongoAccess } from './mongo-options.js'
import { isDuplicateKey, toStoreError } from './store-error.js'

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

/**
 * An upsert that raced another to create the same document meets the unique `_id` and fails with
 * a duplicate key. The server retries such an upsert itself (an equality on `_id`, since 4.2), a
 * bounded number of times (SERVER-60897); this runs it once more for the cases it does not, and
 * then the document exists. A bulk write of upserts fails with the code of its first write error
 * (the driver's bulk/common.ts handleWriteError), so it is run once more the same way.
 */
export const upsertOnceMore = <A>(upsert: () => Promise<A>): Promise<A> =>
  upsert().catch((error: unknown) => {
    if (isDuplicateKey(error)) return upsert()
    throw error
  })
