import type Router from '@koa/router'
import { OPENAPI_PATH } from './docs-routes.js'
import { INSPECTOR_PATH } from './inspector-routes.js'
import { SANDBOXES_PATH } from './made-sandboxes.js'
import { SANDBOX_FAULTS_PATH, SANDBOX_REQUESTS_PATH, SANDBOX_RESET_PATH } from './sandboxes.js'

/**
 * `GET /`: where a person or a tool that found the service goes next. Outside /v1 and without a
 * key, like the health checks: it reveals nothing the contract does not. The sandboxes' addresses,
 * and their fault scripts', are listed only when those are on.
 */
export const registerIndexRoute = (
  router: Router,
  { metrics, sandboxes, faultScripts }: { readonly metrics: boolean; readonly sandboxes: boolean; readonly faultScripts: boolean },
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
      ...(sandboxes
        ? { inspector: INSPECTOR_PATH, sandboxes: SANDBOXES_PATH, sandboxReset: SANDBOX_RESET_PATH, sandboxRequests: SANDBOX_REQUESTS_PATH }
        : {}),
      ...(faultScripts ? { sandboxFaults: SANDBOX_FAULTS_PATH } : {}),
    },
  })
  router.get('/', (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.type = 'application/json'
    ctx.body = index
  })
}
