import type Router from '@koa/router'
import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import type { Context, Middleware, Next } from 'koa'
import type { PetUseCases } from '../../src/domain/use-cases.js'
import type { CursorCodec } from './cursor.js'
import { DEPRECATION_HEADERS } from './deprecation.js'
import { JSON_TYPE, sendCacheable, sendUncached } from './etag.js'
import { sendFailure } from './error-response.js'
import { bodyFingerprint, idempotencyKeyOf } from './fingerprint.js'
import { jsonBody, type JsonBodyState } from './json-body.js'
import { pageEtag, petEtag, petJson, writtenPage } from './pet-json.js'
import { nextPageLink, readListRequest } from './list-request.js'
import type { SandboxState } from './sandboxes.js'

export interface RoutesOptions {
  readonly useCases: PetUseCases
  readonly cursors: CursorCodec
  readonly maxBodyBytes: number
  /** Whether reads carry an ETag and answer If-None-Match. */
  readonly etags: boolean
  /** Runs first on each of the three operations, before the body is read (forced failures). */
  readonly before?: Middleware
}

/** A middleware whose promise settles once it has answered. */
type Operation = (ctx: Context, next: Next) => Promise<void>

/** Each operation with everything it runs, as one middleware. */
export interface PetOperations {
  readonly listPets: Operation
  readonly createPet: Operation
  readonly getPet: Operation
}

/** The route patterns: what the log and the metrics name a request by. */
export const PETS_ROUTE = '/v1/pets'
export const PET_ROUTE = '/v1/pets/:petId'
const PET_PREFIX = '/v1/pets/'

/** What a route parameter becomes, as @koa/router decodes it: percent-decoded, or as sent when that fails. */
const decodeSegment = (text: string): string => {
  if (!text.includes('%')) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const DEPRECATION_ENTRIES = Object.entries(DEPRECATION_HEADERS)

/** `first`, then `then` as its next: what koa-compose does for two, without its per-call promise and bind. */
const chain =
  (first: Operation, then: Operation): Operation =>
  (ctx, next) =>
    first(ctx, () => then(ctx, next))

/** The three operations of the spec: request in, use case, response out. No rules live here. */
export const petOperations = ({ useCases, cursors, maxBodyBytes, etags, before }: RoutesOptions): PetOperations => {
  // Part of each operation, so that what runs first is still logged and measured under its route.
  const afterBefore = (operation: Operation): Operation => (before === undefined ? operation : chain(before, operation))
  /** The caller's sandbox's use cases when sandboxes are on, else everyone's. */
  const useCasesOf = (ctx: Context): PetUseCases => (ctx.state as SandboxState).useCases ?? useCases

  const listPets: Operation = async (ctx) => {
    const request = readListRequest(ctx.querystring, cursors)
    if (E.isLeft(request)) return sendFailure(ctx, request.left)
    const result = await useCasesOf(ctx).listPets(request.right)()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    const next = result.right.next
    const page = writtenPage(result.right.pets, O.isSome(next) ? nextPageLink(request.right, cursors.encode(next.value)) : undefined)
    if (etags) sendCacheable(ctx, page.json, page.link, pageEtag(page))
    else sendUncached(ctx, page.json, page.link)
  }

  const createPet: Operation = async (ctx) => {
    const body = (ctx.state as JsonBodyState).body
    const key = ctx.headers['idempotency-key']
    const client = (ctx.state as SandboxState).client
    const result =
      typeof key === 'string' && client !== undefined
        ? await useCasesOf(ctx).createPetIdempotently({
            client: client.scope,
            key: idempotencyKeyOf(key),
            fingerprint: bodyFingerprint(body),
            body,
          })()
        : await useCasesOf(ctx).createPet(body)()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    const pet = result.right
    ctx.status = 201
    ctx.set('Location', `/v1/pets/${pet.id}`)
    ctx.set('Content-Type', JSON_TYPE)
    ctx.body = petJson(pet)
  }

  const getPet: Operation = async (ctx) => {
    // The router and dispatchPetOperations route only a path with one non-empty segment after the prefix here.
    const result = await useCasesOf(ctx).getPet(decodeSegment(ctx.path.slice(PET_PREFIX.length)))()
    if (E.isLeft(result) && result.left._tag !== 'PetNotFound') return sendFailure(ctx, result.left)
    // Every answer of getPet's own (200 and 404) announces the deprecation.
    for (const [name, value] of DEPRECATION_ENTRIES) ctx.res.setHeader(name, value)
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    if (etags) sendCacheable(ctx, petJson(result.right), undefined, petEtag(result.right))
    else sendUncached(ctx, petJson(result.right))
  }

  return {
    listPets: afterBefore(listPets),
    createPet: afterBefore(chain(jsonBody(maxBodyBytes), createPet)),
    getPet: afterBefore(getPet),
  }
}

/**
 * Declares the operations to the router: it answers HEAD, OPTIONS and 405 (with `Allow`) from these
 * declarations, and routes whatever dispatchPetOperations leaves to it.
 */
export const registerPetRoutes = (router: Router, operations: PetOperations): void => {
  router.get('listPets', PETS_ROUTE, operations.listPets)
  router.post('createPet', PETS_ROUTE, operations.createPet)
  router.get('getPet', PET_ROUTE, operations.getPet)
}

export interface RouteState {
  /** The pattern of the route that answered, for the log and the metrics. */
  route?: string
}

/**
 * The three operations, matched by hand ahead of the router: matching a path against every route,
 * and composing the matched route's middleware, cost @koa/router a sixth of a request. Routes exactly
 * what the router routes to them (case-sensitive and strict, HEAD with GET, one non-empty segment
 * for the id); everything else, including a wrong method, goes on to the router.
 */
export const dispatchPetOperations =
  (operations: PetOperations): Middleware<RouteState> =>
  (ctx, next): Promise<void> => {
    const path = ctx.path
    const method = ctx.method
    const read = method === 'GET' || method === 'HEAD'
    if (path === PETS_ROUTE && (read || method === 'POST')) {
      ctx.state.route = PETS_ROUTE
      return read ? operations.listPets(ctx, next) : operations.createPet(ctx, next)
    }
    if (read && path.startsWith(PET_PREFIX) && path.length > PET_PREFIX.length && !path.includes('/', PET_PREFIX.length)) {
      ctx.state.route = PET_ROUTE
      return operations.getPet(ctx, next)
    }
    return next() as Promise<void>
  }
