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
import * as faults from '../../adapters/test-target/faults.js'
import * as keepingRequests from '../../adapters/test-target/keeping-requests.js'
import * as refusedCredentials from '../../adapters/test-target/refused-credentials.js'
import * as sandboxes from '../../adapters/test-target/sandboxes.js'
import { readConfig } from '../../src/main/config.js'
import { PET_STATUSES } from '../../src/domain/pet.js'
import { openStore } from '../../src/main/store.js'
import { replace, startSwitching, switching, switchingCall, switchLog, switchMetrics } from './feature-switch.js'

/**
 * The composed service exactly as `npm start` runs it (default settings, request logging on), with
 * its memory store seeded in-process with BENCH_PETS pets first (the scaling part creates its
 * million over HTTP instead, from BENCH_PETS=0). BENCH_MODE=test-target runs it as a test target for
 * client developers.
 *
 * BENCH_OFF (comma-separated, the `off` names of FEATURES in scenarios.ts) turns default features
 * off; BENCH_SWITCH makes one switch on and off in turns (feature-switch.ts), so that the benchmark
 * can say what each costs (the `features` part). None changes the statuses or bodies of the
 * benchmark's requests. `log` and `metrics` go through their settings when off. The others have no
 * setting, and get none for the benchmark's sake: here, and only in this process, the export of the
 * module that does one is replaced, before the service is composed, by one that does not, or
 * switches (the compiled modules read each other's exports when they use them). The paging link's
 * signed cursor is not among them: without it a list's answer would change.
 */

/** The settings of test-target mode (per-key sandboxes, each with its request journal; faults on): here only. */
const TEST_TARGET_MODE = { PETSTORE_TEST_TARGET: 'on' }

/** A middleware that does nothing but pass the request on. */
const passOn: Middleware = (_ctx, next) => next()

/** The client every request is taken to be when authentication is off: the idempotency records need one. */
const BENCH_CLIENT = { keyId: 'bench', scope: 'bench' }

/** Authentication off: the client is awaited, as authenticate awaits its port, so later middleware runs a turn later, as with it. */
const awaitedClient: Middleware = async (ctx, next) => {
  ctx.state.client = await Promise.resolve(BENCH_CLIENT)
  await next()
}

/** A read answered without its ETag: what sendCacheable does but the tag and its evaluation. */
const sendWithoutTag: typeof etag.sendCacheable = (ctx, body, link) => {
  ctx.set('Cache-Control', 'private, no-cache')
  if (link !== undefined) ctx.set('Link', link)
  ctx.set('Content-Type', etag.JSON_TYPE)
  ctx.body = body
}

/** Turned off for the process (BENCH_OFF), or switched on and off in turns (BENCH_SWITCH, feature-switch.ts). */
type Mode = 'off' | 'switch'

/** How each feature of FEATURES and TEST_TARGET_FEATURES (scenarios.ts) that has no setting is turned off, or made to switch. */
const SWAPS: Readonly<Record<string, (mode: Mode) => void>> = {
  'request-id': (mode) => {
    const real = requestId.requestId
    replace(requestId, 'requestId', (redact) => (mode === 'off' ? passOn : switching(real(redact), passOn)))
  },
  'common-headers': (mode) =>
    replace(commonHeaders, 'commonHeaders', mode === 'off' ? passOn : switching(commonHeaders.commonHeaders, passOn)),
  auth: (mode) => {
    const real = auth.authenticate
    replace(auth, 'authenticate', (authenticator, protects) =>
      mode === 'off' ? awaitedClient : switching(real(authenticator, protects), awaitedClient),
    )
  },
  etag: (mode) => replace(etag, 'sendCacheable', mode === 'off' ? sendWithoutTag : switchingCall(etag.sendCacheable, sendWithoutTag)),
  deprecation: (mode) => {
    // A constant, read once as routes.ts loads: it can be off for a process, not switched.
    if (mode === 'switch') throw new Error('BENCH_SWITCH: the deprecation headers can only be turned off (BENCH_OFF)')
    replace(deprecation, 'DEPRECATION_HEADERS', {} as typeof deprecation.DEPRECATION_HEADERS)
  },
  'connection-close': (mode) => {
    const real = connectionClose.connectionClose
    replace(connectionClose, 'connectionClose', (shutdown) => (mode === 'off' ? passOn : switching(real(shutdown), passOn)))
  },
  'error-boundary': (mode) => {
    const real = errorBoundary.errorBoundary
    replace(errorBoundary, 'errorBoundary', (options) => (mode === 'off' ? passOn : switching(real(options), passOn)))
  },
  'body-received': (mode) => {
    const real = bodyReceived.bodyReceived
    replace(bodyReceived, 'bodyReceived', (routers, limit) => (mode === 'off' ? passOn : switching(real(routers, limit), passOn)))
  },
  journal: (mode) => {
    const [requests, refused] = [keepingRequests.journalRequests, refusedCredentials.journalRefusedCredentials]
    replace(keepingRequests, 'journalRequests', (keep) => (mode === 'off' ? passOn : switching(requests(keep), passOn)))
    replace(refusedCredentials, 'journalRefusedCredentials', (keep, authentication) =>
      mode === 'off' ? passOn : switching(refused(keep, authentication), passOn),
    )
  },
  sandbox: (mode) => {
    const real = sandboxes.chooseSandbox
    replace(sandboxes, 'chooseSandbox', (chosen) => (mode === 'off' ? passOn : switching(real(chosen), passOn)))
  },
  faults: (mode) => {
    const real = faults.faults
    replace(faults, 'faults', (options) => {
      const { before, afterBody } = real(options)
      const which = (middleware: Middleware): Middleware => (mode === 'off' ? passOn : switching(middleware, passOn))
      return { before: (operation) => which(before(operation)), afterBody: which(afterBody) }
    })
  },
}

/** A feature of FEATURES, by its `off` name: `log` and `metrics` have settings, the others a swap. */
const checked = (feature: string, variable: string): string => {
  if (feature !== 'log' && feature !== 'metrics' && SWAPS[feature] === undefined) throw new Error(`${variable}: no feature ${feature}`)
  return feature
}

const off = new Set((process.env.BENCH_OFF ?? '').split(',').filter((feature) => feature !== ''))
for (const feature of off) SWAPS[checked(feature, 'BENCH_OFF')]?.('off')
const switched = process.env.BENCH_SWITCH === undefined ? undefined : checked(process.env.BENCH_SWITCH, 'BENCH_SWITCH')
if (switched !== undefined) {
  if (switched === 'metrics') switchMetrics()
  SWAPS[switched]?.('switch')
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
  const { runService, serviceLogger } = await import('../../src/main/service.js')
  const logger = serviceLogger(settings)
  if (switched !== undefined) startSwitching(process.env.BENCH_SWITCH_REPORT ?? '', switched === 'log' ? switchLog(logger) : undefined)
  return runService(settings, store.right, logger)
})
