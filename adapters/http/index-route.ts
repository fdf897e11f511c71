import type Router from '@koa/router'
import { OPENAPI_PATH } from './docs-routes.js'

/**
 * `GET /`: where a person or a tool that found the service goes next. Outside /v1 and without a
 * key, like the health checks: it reveals nothing the contract does not. An extension's
 * addresses (`links`) are listed only when it is mounted.
 */
export const registerIndexRoute = (
  router: Router,
  { metrics, links }: { readonly metrics: boolean; readonly links: Readonly<Record<string, string>> },
): void => {
  const index = JSON.stringify({
    service: 'Pet Store',
    version: '1.0.0',
    links: {
      api: '/v1/pets',
      contract: OPENAPI_PATH,
      reference: '/docs',
      liveness: '/healthz',
      readiness: '/readyz',
      ...(metrics ? { metrics: '/metrics' } : {}),
      ...links,
    },
  })
  router.get('/', (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.type = 'application/json'
    ctx.body = index
  })
}
