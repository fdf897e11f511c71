import * as E from 'fp-ts/Either'
import { type InvalidParameter, invalidParameter } from '../../src/domain/errors.js'
import { decodeListRequest, type ListPetsRequest } from '../../src/domain/list-pets.js'
import type { CursorCodec } from './cursor.js'

const LIST_PARAMETERS = ['limit', 'status', 'after']

/**
 * A query string's parameters by name, each with its values in order, read as URLSearchParams reads
 * it (form encoding: `+` is a space, invalid percent-escapes are kept). Plain text, the usual
 * case, is split by hand: URLSearchParams costs several microseconds on every list.
 */
export const queryParameters = (query: string): Map<string, string[]> => {
  const parameters = new Map<string, string[]>()
  const add = (name: string, value: string): void => {
    const values = parameters.get(name)
    if (values === undefined) parameters.set(name, [value])
    else values.push(value)
  }
  if (/[%+]/.test(query)) {
    new URLSearchParams(query).forEach((value, name) => add(name, value))
    return parameters
  }
  for (const pair of query.split('&')) {
    if (pair === '') continue
    const equals = pair.indexOf('=')
    if (equals === -1) add(pair, '')
    else add(pair.slice(0, equals), pair.slice(equals + 1))
  }
  return parameters
}

/**
 * Reads listPets's query string. Query-string syntax is HTTP's business, so it is checked here:
 * every parameter at most once and none unknown (a client guessing `offset` must not silently get
 * the first page again); the cursor is opened here too. The values' rules belong to the domain.
 */
export const readListRequest = (query: string, cursors: CursorCodec): E.Either<InvalidParameter, ListPetsRequest> => {
  const problems: string[] = []
  const request: { limit?: string; status?: string; after?: number } = {}
  for (const [name, values] of queryParameters(query)) {
    const value = values.length === 1 ? values[0] : undefined
    if (!LIST_PARAMETERS.includes(name)) {
      problems.push(`${name}: is not a parameter of this operation (accepted: ${LIST_PARAMETERS.join(', ')})`)
    } else if (value === undefined) {
      problems.push(`${name}: must be given at most once`)
    } else if (name === 'after') {
      const after = cursors.decode(value)
      if (after === undefined) problems.push('after: is not a valid cursor; follow the Link header of the previous page')
      else request.after = after
    } else if (name === 'limit') request.limit = value
    else request.status = value
  }
  if (problems.length === 0) return E.right(request)
  // Name every problem at once, also those of the values, which the domain would otherwise report next.
  const values = decodeListRequest(request)
  return E.left(invalidParameter([...(E.isLeft(values) ? values.left.problems : []), ...problems]))
}

/** The `next` link of a page: the same limit and status as the request, continuing after `after`. */
export const nextPageLink = (request: ListPetsRequest, after: string): string => {
  // Built by hand on a hot path; the values are a valid limit, a PetStatus and a cursor, but are
  // encoded all the same.
  const limit = request.limit === undefined ? '' : `limit=${encodeURIComponent(request.limit)}&`
  const status = request.status === undefined ? '' : `status=${encodeURIComponent(request.status)}&`
  return `</v1/pets?${limit}${status}after=${encodeURIComponent(after)}>; rel="next"`
}
