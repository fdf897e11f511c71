import type * as O from 'fp-ts/Option'
import type * as TE from 'fp-ts/TaskEither'
import type { StoreError } from './errors.js'
import type { Pet, PetDraft, PetId, PetStatus } from './pet.js'

/** One page request to the store: pets with an id above `after`, optionally of one status. */
export interface PetListQuery {
  readonly limit: number
  readonly status?: PetStatus
  readonly after?: PetId
}

/**
 * The storage port. Every adapter must pass test/ports/pet-repository.contract.ts:
 * - insert assigns a new positive id, unique across every instance sharing the store and never
 *   reused, and resolves only once the pet is durably stored (as durable as the adapter can be).
 *   A repository serves one data set: everyone's, or one of the named ones a store may hold,
 *   whose reset starts a new data set, whose ids start again;
 * - insert under a `createId` stores at most one pet: a second insert under the same id stores
 *   nothing and answers the pet the first stored (the draft is not compared). A failed insert may
 *   have stored its pet all the same (its answer lost or late, its write concern not met), so a
 *   create that failed is retried under the same id, never making a second pet;
 * - a call's task does its work each time it is run, and none when it is made (a use case makes
 *   a task before its caller runs it);
 * - findById answers None for an id no pet has;
 * - list returns pets in ascending id order, only ids above `after`, only `status` when given, and at
 *   most `limit` of them, at a cost that grows with `limit`, not with the number of pets;
 * - every call fails within a bounded time rather than hang, with StoreUnavailable when the failure
 *   passes by itself (no server, timeout, failover: the client is told to retry later) and with
 *   StoreFailed when it does not (refused credentials or settings, a stored document that is not a
 *   pet: an operator must act). An adapter that cannot tell says StoreFailed, never hides a bug
 *   behind "retry later".
 */
export interface PetRepository {
  readonly insert: (draft: PetDraft, createId?: string) => TE.TaskEither<StoreError, Pet>
  readonly findById: (id: PetId) => TE.TaskEither<StoreError, O.Option<Pet>>
  readonly list: (query: PetListQuery) => TE.TaskEither<StoreError, ReadonlyArray<Pet>>
}
