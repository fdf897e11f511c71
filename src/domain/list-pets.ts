import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as O from 'fp-ts/Option'
import * as RA from 'fp-ts/ReadonlyArray'
import * as TE from 'fp-ts/TaskEither'
import { type InvalidParameter, invalidParameter, type StoreError } from './errors.js'
import { parseIntegerText } from './integer-text.js'
import { PET_STATUSES, type Pet, type PetId, type PetStatus } from './pet.js'
import type { PetListQuery, PetRepository } from './pet-repository.js'

/** Spec §8. */
const LIMIT_MIN = 1
export const LIMIT_MAX = 100
export const LIMIT_DEFAULT = 20

/** listPets's parameters as the client wrote them; `after` is a position already read from a cursor. */
export interface ListPetsRequest {
  readonly limit?: string
  readonly status?: string
  readonly after?: PetId
}

/** One page: the pets, and the position to continue after when more pets match. */
export interface PetPage {
  readonly pets: ReadonlyArray<Pet>
  readonly next: O.Option<PetId>
}

const decodeLimit = (text: string | undefined): E.Either<string, number> => {
  if (text === undefined) return E.right(LIMIT_DEFAULT)
  const value = parseIntegerText(text)
  return value !== undefined && value >= LIMIT_MIN && value <= LIMIT_MAX
    ? E.right(Number(value))
    : E.left(`limit: must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}`)
}

const decodeStatus = (text: string | undefined): E.Either<string, PetStatus | undefined> => {
  if (text === undefined) return E.right(undefined)
  const status = PET_STATUSES.find((candidate) => candidate === text)
  return status === undefined ? E.left(`status: must be one of ${PET_STATUSES.join(', ')}`) : E.right(status)
}

/** Validates every parameter and reports all problems at once. */
export const decodeListRequest = (request: ListPetsRequest): E.Either<InvalidParameter, PetListQuery> => {
  const limit = decodeLimit(request.limit)
  const status = decodeStatus(request.status)
  if (E.isLeft(limit) || E.isLeft(status)) {
    return E.left(invalidParameter(RA.lefts<string, unknown>([limit, status])))
  }
  return E.right({
    limit: limit.right,
    ...(status.right === undefined ? {} : { status: status.right }),
    ...(request.after === undefined ? {} : { after: request.after }),
  })
}

/** Asks the store for one pet more than the page holds, to learn without counting whether more exist. */
const toPage =
  (limit: number) =>
  (pets: ReadonlyArray<Pet>): PetPage => {
    const page = pets.slice(0, limit)
    const last = page[page.length - 1]
    return { pets: page, next: pets.length > limit && last !== undefined ? O.some(last.id) : O.none }
  }

/**
 * listPets (spec §4.1): a page of pets in ascending id order. The parameters are read before the
 * TaskEither starts: every step of one is a promise, and only the store needs to be one.
 */
export const listPets =
  (deps: { readonly pets: PetRepository }) =>
  (request: ListPetsRequest): TE.TaskEither<InvalidParameter | StoreError, PetPage> => {
    const query = decodeListRequest(request)
    if (E.isLeft(query)) return TE.left(query.left)
    return pipe(deps.pets.list({ ...query.right, limit: query.right.limit + 1 }), TE.map(toPage(query.right.limit)))
  }
