import type Router from '@koa/router'
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client'

/** What the edge reports about each answered request. */
export interface RequestMetrics {
  readonly observe: (method: string, route: string, status: number, seconds: number, storeFailed: boolean) => void
}

/**
 * Prometheus metrics (prom-client): requests by route and status, a latency histogram, store errors,
 * and Node's default process metrics. Labels are route patterns and statuses only: no path, no key,
 * no pet data, and a bounded number of series.
 */
export const createMetrics = (): RequestMetrics & { readonly registry: Registry } => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'petstore_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'petstore_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  })
  const storeErrors = new Counter({
    name: 'petstore_store_errors_total',
    help: 'Requests answered 503 because the store was unavailable, by route pattern',
    labelNames: ['route'] as const,
    registers: [registry],
  })
  return {
    registry,
    observe: (method, route, status, seconds, storeFailed) => {
      requests.inc({ method, route, status })
      duration.observe({ method, route }, seconds)
      if (storeFailed) storeErrors.inc({ route })
    },
  }
}

/** GET /metrics in the Prometheus text format, outside /v1 and without a key: it reveals no secret. */
export const registerMetricsRoute = (router: Router, registry: Registry): void => {
  router.get('/metrics', async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.type = registry.contentType
    ctx.body = await registry.metrics()
  })
}
