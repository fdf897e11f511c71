import type { ListPetsRequest } from '../../src/domain/list-pets.js'
import type { CursorCodec } from './cursor.js'
import { echoed } from './error-response.js'

const LIST_PARAMETERS = ['limit', 'status', 'after']

/**
 * Reads listPets's query, as Koa parsed it (`ctx.query`). Query-string syntax is HTTP's business, so it is checked here:
 * every parameter at most once and none unknown (a client guessing `offset` must not silently get
 * the first page again); the cursor is opened here too. The values' rules belong to the domain, which
 * names what could not be read here together with the values' problems.
 */
export const readListRequest = (
  query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  cursors: CursorCodec,
): ListPetsRequest => {
  const problems: string[] = []
  const request: { limit?: string; status?: string; after?: number } = {}
  for (const [name, values] of Object.entries(query)) {
    const value = typeof values === 'string' ? values : undefined
    if (!LIST_PARAMETERS.includes(name)) {
      problems.push(`${echoed(name)}: is not a parameter of this operation (accepted: ${LIST_PARAMETERS.join(', ')})`)
    } else if (value === undefined) {
      problems.push(`${name}: must be given at most once`)
    } else if (name === 'after') {
      const after = cursors.decode(value)
      if (after === undefined) problems.push('after: is not a valid cursor; follow the Link header of the previous page')
      else request.after = after
    } else if (name === 'limit') request.limit = value
    else request.status = value
  }
  return problems.length === 0 ? request : { ...request, unread: problems }
}

/** The `next` link of a page: the same limit and status as the request, continuing after `after`. */
export const nextPageLink = (request: ListPetsRequest, after: string): string => {
  // The values are a valid limit, a PetStatus and a cursor, but are encoded all the same.
  const limit = request.limit === undefined ? '' : `limit=${encodeURIComponent(request.limit)}&`
  const status = request.status === undefined ? '' : `status=${encodeURIComponent(request.status)}&`
  return `</v1/pets?${limit}${status}after=${encodeURIComponent(after)}>; rel="next"`
}
