import type Router from '@koa/router'
import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import type { Context, Middleware } from 'koa'
import type { PetUseCases } from '../../src/domain/use-cases.js'
import type { CursorCodec } from './cursor.js'
import { DEPRECATION_HEADERS } from './deprecation.js'
import { JSON_TYPE, sendCacheable } from './etag.js'
import { sendFailure } from './error-response.js'
import { bodyFingerprint, idempotencyKeyOf } from './fingerprint.js'
import { jsonBody, type JsonBodyState } from './json-body.js'
import { nextPageLink, readListRequest } from './list-request.js'
import type { AuthState } from './auth.js'

/** The spec's three operations, by their operationIds. */
export const PET_OPERATIONS = ['listPets', 'createPet', 'getPet'] as const
export type PetOperation = (typeof PET_OPERATIONS)[number]

/** The use cases a request works with, when an extension chose them for it; everyone's when absent. */
export interface UseCasesState extends AuthState {
  useCases?: PetUseCases
}

interface RoutesOptions {
  readonly useCases: PetUseCases
  readonly cursors: CursorCodec
  readonly maxBodyBytes: number
  /** An extension's hooks of each operation (RequestHooks, extension.ts). */
  readonly hooks?: {
    readonly operation?: (operation: PetOperation) => Middleware
    readonly afterBody?: Middleware
  }
}

/** The route patterns: what the log and the metrics name a request by. */
const PETS_ROUTE = '/v1/pets'
const PET_ROUTE = '/v1/pets/:petId'

const DEPRECATION_ENTRIES = Object.entries(DEPRECATION_HEADERS)

type OperationState = UseCasesState & JsonBodyState

/**
 * The three operations of the spec, declared to the router: request in, use case, response out. No
 * rules live here. The router also answers HEAD like GET, and (with allowedMethods) OPTIONS and 405
 * with `Allow`, from these declarations.
 */
export const registerPetRoutes = (router: Router, { useCases, cursors, maxBodyBytes, hooks = {} }: RoutesOptions): void => {
  const { operation: hook, afterBody } = hooks
  // Part of each route, so that what runs first is still logged and measured under its pattern.
  const first = (operation: PetOperation): ReadonlyArray<Middleware> => (hook === undefined ? [] : [hook(operation)])
  /** The use cases an extension chose for the request, else everyone's. */
  const useCasesOf = (ctx: Context): PetUseCases => (ctx.state as UseCasesState).useCases ?? useCases

  router.get<OperationState>('listPets', PETS_ROUTE, ...first('listPets'), async (ctx) => {
    const request = readListRequest(ctx.query, cursors)
    const result = await useCasesOf(ctx).listPets(request)()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    const next = result.right.next
    const link = O.isSome(next) ? nextPageLink(request, cursors.encode(next.value)) : undefined
    sendCacheable(ctx, JSON.stringify(result.right.pets), link)
  })

  router.post<OperationState>(
    'createPet',
    PETS_ROUTE,
    ...first('createPet'),
    ...jsonBody(maxBodyBytes, 'a JSON object (a NewPet)'),
    ...(afterBody === undefined ? [] : [afterBody]),
    async (ctx) => {
      const body = ctx.state.body
      const key = ctx.headers['idempotency-key']
      const client = ctx.state.client
      const idempotency =
        typeof key === 'string' && client !== undefined
          ? { client: client.scope, key: idempotencyKeyOf(key), fingerprint: bodyFingerprint(body) }
          : undefined
      const result = await useCasesOf(ctx).createPet(body, idempotency)()
      if (E.isLeft(result)) return sendFailure(ctx, result.left)
      const pet = result.right
      ctx.status = 201
      ctx.set('Location', `/v1/pets/${pet.id}`)
      ctx.set('Content-Type', JSON_TYPE)
      ctx.body = JSON.stringify(pet)
    },
  )

  router.get<OperationState>('getPet', PET_ROUTE, ...first('getPet'), async (ctx) => {
    const result = await useCasesOf(ctx).getPet(ctx.params.petId ?? '')()
    if (E.isLeft(result) && result.left._tag !== 'PetNotFound') return sendFailure(ctx, result.left)
    // Every answer of getPet's own (200 and 404) announces the deprecation.
    for (const [name, value] of DEPRECATION_ENTRIES) ctx.set(name, value)
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    sendCacheable(ctx, JSON.stringify(result.right))
  })
}
