import type Router from '@koa/router'
import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import type { Middleware } from 'koa'
import type { PetUseCases } from '../../src/domain/use-cases.js'
import type { CursorCodec } from './cursor.js'
import type { Context } from 'koa'
import { DEPRECATION_HEADERS } from './deprecation.js'
import { JSON_TYPE, sendCacheable, sendUncached } from './etag.js'
import { sendFailure } from './error-response.js'
import { bodyFingerprint, idempotencyKeyOf } from './fingerprint.js'
import { jsonBody, type JsonBodyState } from './json-body.js'
import { petJson, petsJson } from './pet-json.js'
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

const DEPRECATION_ENTRIES = Object.entries(DEPRECATION_HEADERS)

/** The three operations of the spec: request in, use case, response out. No rules live here. */
export const registerPetRoutes = (router: Router, { useCases, cursors, maxBodyBytes, etags, before }: RoutesOptions): void => {
  // Router-level, so that what runs first is still logged and measured under the route's pattern.
  const first = before === undefined ? [] : [before]
  /** The caller's sandbox's use cases when sandboxes are on, else everyone's. */
  const useCasesOf = (ctx: Context): PetUseCases => (ctx.state as SandboxState).useCases ?? useCases
  const sendRead = etags ? sendCacheable : sendUncached

  router.get('listPets', '/v1/pets', ...first, async (ctx) => {
    const request = readListRequest(ctx.querystring, cursors)
    if (E.isLeft(request)) return sendFailure(ctx, request.left)
    const result = await useCasesOf(ctx).listPets(request.right)()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    const next = result.right.next
    sendRead(ctx, petsJson(result.right.pets), O.isSome(next) ? nextPageLink(request.right, cursors.encode(next.value)) : undefined)
  })

  router.post('createPet', '/v1/pets', ...first, jsonBody(maxBodyBytes), async (ctx) => {
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
  })

  router.get('getPet', '/v1/pets/:petId', ...first, async (ctx) => {
    const result = await useCasesOf(ctx).getPet(ctx.params.petId ?? '')()
    if (E.isLeft(result) && result.left._tag !== 'PetNotFound') return sendFailure(ctx, result.left)
    // Every answer of getPet's own (200 and 404) announces the deprecation.
    for (const [name, value] of DEPRECATION_ENTRIES) ctx.res.setHeader(name, value)
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    sendRead(ctx, petJson(result.right))
  })
}
