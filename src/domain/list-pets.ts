import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as O from 'fp-ts/Option'
import * as TE from 'fp-ts/TaskEither'
import * as t from 'io-ts'
import { describeErrors } from './codec.js'
import { type InvalidParameter, invalidParameter, type StoreError } from './errors.js'
import { SafeIntegerText } from './integer-text.js'
import { type Pet, PetId, PetStatus } from './pet.js'
import type { PetListQuery, PetRepository } from './pet-repository.js'

/** Spec §8. */
const LIMIT_MIN = 1
export const LIMIT_MAX = 100
export const LIMIT_DEFAULT = 20

/**
 * listPets's parameters as the client wrote them; `after` is a position already read from a cursor.
 * `unread` names what the driver could not read (an unknown or repeated parameter, a bad cursor):
 * the one answer names those and the values' problems together.
 */
export interface ListPetsRequest {
  readonly limit?: string
  readonly status?: string
  readonly after?: PetId
  readonly unread?: ReadonlyArray<string>
}

/** One page: the pets, and the position to continue after when more pets match. */
export interface PetPage {
  readonly pets: ReadonlyArray<Pet>
  readonly next: O.Option<PetId>
}

/** Every parameter is checked, so that one answer names all problems at once. */
const ListPetsParameters = t.partial({ limit: SafeIntegerText(LIMIT_MIN, LIMIT_MAX), status: PetStatus, after: PetId })

/** Reads listPets's parameters into a store query, with the default limit; every problem at once. */
const decodeListRequest = ({ unread = [], ...request }: ListPetsRequest): E.Either<InvalidParameter, PetListQuery> => {
  const values = ListPetsParameters.decode(request)
  const problems = [...(E.isLeft(values) ? describeErrors(values.left) : []), ...unread]
  if (E.isLeft(values) || problems.length > 0) return E.left(invalidParameter(problems))
  const { limit = LIMIT_DEFAULT, status, after } = values.right
  return E.right({ limit, ...(status === undefined ? {} : { status }), ...(after === undefined ? {} : { after }) })
}

/** The page of `limit` pets, from the `limit + 1` the store was asked for. */
const pageOf =
  (limit: number) =>
  (found: ReadonlyArray<Pet>): PetPage => {
    const pets = found.slice(0, limit)
    const last = pets[pets.length - 1]
    return { pets, next: found.length > limit && last !== undefined ? O.some(last.id) : O.none }
  }

/**
 * listPets (spec §4.1): a page of pets in ascending id order. The store is asked for one pet more
 * than the page holds, to learn without counting whether more exist.
 */
export const listPets =
  (deps: { readonly pets: PetRepository }) =>
  (request: ListPetsRequest): TE.TaskEither<InvalidParameter | StoreError, PetPage> =>
    pipe(
      decodeListRequest(request),
      E.matchW(TE.left, (query) => pipe(deps.pets.list({ ...query, limit: query.limit + 1 }), TE.map(pageOf(query.limit)))),
    )
