import type { Context, Next } from 'koa'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { createRouter } from '../../adapters/http/app.js'
import { dispatchPetOperations, type PetOperations, registerPetRoutes, type RouteState } from '../../adapters/http/routes.js'

const Dispatch = suite('dispatchPetOperations')

/** Operations that only say which of them ran. */
const saying = (name: string) => (() => name) as unknown as PetOperations['getPet']
const operations: PetOperations = { listPets: saying('listPets'), createPet: saying('createPet'), getPet: saying('getPet') }
const router = createRouter()
registerPetRoutes(router, operations)
const dispatch = dispatchPetOperations(operations)

/** The operation the hand dispatch runs, with the route it records, or `router` when it leaves the request to the router. */
const dispatched = (method: string, path: string): { operation: unknown; route: string | undefined } => {
  const ctx = { method, path, state: {} as RouteState } as unknown as Context & { state: RouteState }
  const operation: unknown = dispatch(ctx, (() => 'router') as unknown as Next)
  return { operation, route: ctx.state.route }
}

/** The operation and pattern @koa/router routes the request to, or `router` when it routes it to none of them. */
const routed = (method: string, path: string): { operation: unknown; route: string | undefined } => {
  const layer = router.match(path, method).pathAndMethod.at(-1)
  return layer === undefined ? { operation: 'router', route: undefined } : { operation: layer.name, route: String(layer.path) }
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
const PATHS = [
  '/v1/pets',
  '/v1/pets/',
  '/v1/pets/1',
  '/v1/pets/500',
  '/v1/pets/-1',
  '/v1/pets/abc',
  '/v1/pets/%35%30%30',
  '/v1/pets/%E0%A4%A',
  '/v1/pets/1/',
  '/v1/pets/1/photos',
  '/v1/pets//',
  '/v1/pets//1',
  '/v1/petsx',
  '/v1/pet',
  '/V1/pets',
  '/v1/PETS/1',
  '/pets',
  '/v1',
  '/',
]

Dispatch('routes every method and path to exactly the operation @koa/router routes it to, under the same pattern', () => {
  for (const method of METHODS) {
    for (const path of PATHS) assert.equal(dispatched(method, path), routed(method, path), `${method} ${path}`)
  }
})

Dispatch('hands the three operations to their handlers without the router', () => {
  assert.equal(dispatched('GET', '/v1/pets'), { operation: 'listPets', route: '/v1/pets' })
  assert.equal(dispatched('POST', '/v1/pets'), { operation: 'createPet', route: '/v1/pets' })
  assert.equal(dispatched('GET', '/v1/pets/7'), { operation: 'getPet', route: '/v1/pets/:petId' })
})

Dispatch.run()
