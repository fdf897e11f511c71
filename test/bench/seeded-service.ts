import * as E from 'fp-ts/Either'
import type { Middleware } from 'koa'
import * as auth from '../../adapters/http/auth.js'
import * as bodyReceived from '../../adapters/http/body-received.js'
import * as commonHeaders from '../../adapters/http/common-headers.js'
import * as connectionClose from '../../adapters/http/connection-close.js'
import * as deprecation from '../../adapters/http/deprecation.js'
import * as errorBoundary from '../../adapters/http/error-boundary.js'
import * as etag from '../../adapters/http/etag.js'
import * as requestId from '../../adapters/http/request-id.js'
import { readConfig } from '../../src/main/config.js'
import { PET_STATUSES } from '../../src/domain/pet.js'
import { openStore } from '../../src/main/store.js'

/**
 * The composed service exactly as `npm start` runs it (default settings, request logging on), with
 * its memory store seeded in-process with BENCH_PETS pets first (the scaling part creates its
 * million over HTTP instead, from BENCH_PETS=0). BENCH_MODE=test-target runs it as a test target for
 * client developers.
 *
 * BENCH_OFF (comma-separated, the `off` names of FEATURES in scenarios.ts) turns default features off, so that the benchmark
 * can say what each costs (the `features` part). None changes the statuses or bodies of the
 * benchmark's requests. `log` and `metrics` go through their settings. The others have no setting,
 * and get none for the benchmark's sake: here, and only in this process, the export of the module
 * that does one is replaced, before the service is composed, by one that does not (the compiled
 * modules read each other's exports when they use them). The paging link's signed cursor is not
 * among them: without it a list's answer would change; its cost is in docs/performance.md, from a
 * CPU profile.
 */

/** The settings of test-target mode (per-key sandboxes, each with its request journal; faults on): here only. */
const TEST_TARGET_MODE = { PETSTORE_TEST_TARGET: 'on' }

/** Replaces `module`'s export `name` in this process: CommonJS exports are plain properties. */
const replace = <M extends object, K extends keyof M>(module: M, name: K, value: M[K]): void =>
  void Object.defineProperty(module, name, { value })

/** A middleware that does nothing but pass the request on. */
const passOn: Middleware = (_ctx, next) => next()

/** The client every request is taken to be when authentication is off: the idempotency records need one. */
const BENCH_CLIENT = { keyId: 'bench', scope: 'bench' }

/** How each feature of FEATURES (scenarios.ts) that has no setting is turned off. */
const TURN_OFF: Readonly<Record<string, () => void>> = {
  'request-id': () => replace(requestId, 'requestId', () => passOn),
  'common-headers': () => replace(commonHeaders, 'commonHeaders', passOn),
  // The client is awaited, as authenticate awaits its port: the request's later middleware runs a turn later, as it does with it.
  auth: () =>
    replace(auth, 'authenticate', () => async (ctx, next) => {
      ctx.state.client = await Promise.resolve(BENCH_CLIENT)
      await next()
    }),
  etag: () =>
    replace(etag, 'sendCacheable', (ctx, body, link) => {
      ctx.set('Cache-Control', 'private, no-cache')
      if (link !== undefined) ctx.set('Link', link)
      ctx.set('Content-Type', etag.JSON_TYPE)
      ctx.body = body
    }),
  deprecation: () => replace(deprecation, 'DEPRECATION_HEADERS', {} as typeof deprecation.DEPRECATION_HEADERS),
  'connection-close': () => replace(connectionClose, 'connectionClose', () => passOn),
  'error-boundary': () => replace(errorBoundary, 'errorBoundary', () => passOn),
  'body-received': () => replace(bodyReceived, 'bodyReceived', () => passOn),
}

const off = new Set((process.env.BENCH_OFF ?? '').split(',').filter((feature) => feature !== ''))
for (const feature of off) {
  if (feature !== 'log' && feature !== 'metrics' && TURN_OFF[feature] === undefined) throw new Error(`BENCH_OFF: no feature ${feature}`)
  TURN_OFF[feature]?.()
}

const count = Number(process.env.BENCH_PETS ?? '1000')
const pets = Array.from({ length: count }, (_, index) => ({
  name: `pet ${index}`,
  categoryId: index % 10,
  status: PET_STATUSES[index % 3] ?? 'available',
}))
const config = readConfig(
  {
    ...process.env,
    ...(process.env.BENCH_MODE === 'test-target' ? TEST_TARGET_MODE : {}),
    // The request line is written at info.
    ...(off.has('log') ? { LOG_LEVEL: 'warn' } : {}),
    ...(off.has('metrics') ? { PETSTORE_METRICS: 'off' } : {}),
  },
  () => 'unused-generated-key',
)
if (E.isLeft(config)) throw new Error(config.left.join('; '))
const settings = config.right
// Opened as `npm start` opens it, seeded with the pets; the service's modules loaded only now, after the replacements.
void openStore(settings.store, pets).then(async (store) => {
  if (E.isLeft(store)) throw new Error(store.left)
  const { runService } = await import('../../src/main/service.js')
  return runService(settings, store.right)
})
