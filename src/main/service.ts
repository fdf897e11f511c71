import pino from 'pino'
import { MADE_KEY_FORM, madeKeys } from '../../adapters/auth/made-keys.js'
import { staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'
import { buildApp } from '../../adapters/http/app.js'
import { cursorCodec } from '../../adapters/http/cursor.js'
import { createHttpServer } from '../../adapters/http/http-server.js'
import { keyRedactor } from '../../adapters/http/key-redaction.js'
import { petUseCases } from '../domain/use-cases.js'
import type { Config } from './config.js'
import type { AppExtension } from '../../adapters/http/extension.js'
import type { Redact } from '../../adapters/http/key-redaction.js'
import { applySeed } from './seed/apply-seed.js'
import { seedGate } from './seed/seed-gate.js'
import type { SandboxSpace } from '../ports/sandboxes.js'
import type { Store } from '../ports/store.js'

/**
 * Log lines are buffered and written 4 KiB at a time, or every 100 ms, whichever comes first, and
 * whatever is buffered is written when the process exits: one system call per request line was the
 * largest single cost of a request. Written synchronously: handing each write to libuv's thread pool
 * cost a tenth of a list in thread switches (docs/performance.md), and a stdout that stops reading
 * makes the service wait rather than buffer without bound.
 */
const LOG_DESTINATION = { dest: 1, sync: true, minLength: 4096, periodicFlush: 100 }

/** How long shutdown waits for requests in flight before closing their connections. */
const SHUTDOWN_DEADLINE_MS = 10_000

/**
 * The one secret ever printed: a key generated for this development run, once, on stderr, outside
 * the JSON log stream on stdout.
 */
const printDevelopmentKeyBanner = (key: string, url: string): void => {
  process.stderr.write(
    [
      '',
      '  No PETSTORE_API_KEYS configured: generated a development API key for this run.',
      `  API key: ${key}`,
      `  Try:     curl -H 'Authorization: Bearer ${key}' ${url}/v1/pets`,
      '',
      '',
    ].join('\n'),
  )
}

/**
 * The test target for client developers, when a setting turns a part of it on (per-key sandboxes,
 * faults); otherwise undefined, and its module is never loaded.
 */
const mountedTestTarget = async (
  config: Config,
  space: SandboxSpace | undefined,
  redact: Redact,
  shutdown: AbortSignal,
): Promise<AppExtension | undefined> => {
  if (space === undefined && !config.faults) return undefined
  const { testTarget } = await import('../../adapters/test-target/test-target.js')
  const sandboxes = space === undefined ? {} : { sandboxes: { space, madeKeys: madeKeys(config.madeSandboxes) } }
  return testTarget({ ...sandboxes, faults: config.faults, redact, maxBodyBytes: config.maxBodyBytes, shutdown })
}

/**
 * Wires the adapters for `config` around `store`, listens, and handles shutdown. `main` calls it
 * with the store the settings name; the benchmark with a pre-seeded one.
 */
export const startService = async (config: Config, opened: Store): Promise<void> => {
  // Readiness and creates wait for the seed to settle.
  const { store, open: seedSettled } = seedGate(opened)
  const destination = pino.destination(LOG_DESTINATION)
  // pino flushes only an asynchronous destination at exit; this one may hold up to 4 KiB of lines.
  process.once('exit', () => {
    try {
      destination.flushSync()
    } catch {
      // stdout is gone (a closed pipe): nothing can be written any more.
    }
  })
  const logger = pino({ level: config.logLevel }, destination)
  const keys = config.apiKeys.source === 'configured' ? config.apiKeys.keys : [config.apiKeys.key]
  // readConfig refuses per-key sandboxes on a store without them.
  const space = config.sandboxes === 'per-key' ? store.sandboxes : undefined
  // The keys of sandboxes made at run time are not known yet: they are hidden by their form.
  const redact = keyRedactor(keys, space === undefined ? [] : [MADE_KEY_FORM])
  let draining = false
  const shutdownBegun = new AbortController()
  const testTarget = await mountedTestTarget(config, space, redact, shutdownBegun.signal)
  const app = buildApp({
    useCases: petUseCases(store.shared),
    ...(testTarget === undefined ? {} : { testTarget }),
    health: { ready: store.ready, draining: () => draining },
    authenticator: staticKeyAuthenticator(keys),
    redact,
    logger,
    cursors: cursorCodec(config.cursorSecret),
    maxBodyBytes: config.maxBodyBytes,
    metrics: config.metrics,
    shutdown: shutdownBegun.signal,
    ...(config.corsOrigins === undefined ? {} : { corsOrigins: config.corsOrigins }),
    ...(config.rateLimit === undefined ? {} : { rateLimit: { limit: config.rateLimit, counter: store.rateLimits } }),
  })
  const server = createHttpServer(app, { logger, redact })
  // Clients connecting at once see the seeded store, not an empty one.
  await applySeed(config, store, logger, seedSettled)

  server.on('error', (error: NodeJS.ErrnoException) => {
    logger.fatal(
      { code: error.code },
      `cannot listen on ${config.host}:${config.port} (check HOST and PORT): ${error.code ?? error.message}`,
    )
    process.exit(1)
  })
  server.listen(config.port, config.host, () => {
    const address = server.address()
    const port = typeof address === 'object' && address !== null ? address.port : config.port
    const host = config.host.includes(':') ? `[${config.host}]` : config.host
    const url = `http://${host}:${port}`
    if (config.apiKeys.source === 'generated') printDevelopmentKeyBanner(config.apiKeys.key, url)
    logger.info({ url, store: config.store.kind }, `listening on ${url}`)
    if (config.faults) logger.warn('PETSTORE_FAULTS=on: any client with a key can force failures and delays with a Prefer header')
  })

  const shutdown = (signal: string): void => {
    // A second signal means "now": the operator has stopped waiting for the requests in flight.
    if (draining) {
      logger.warn({ signal }, 'second signal: stopping at once')
      process.exit(1)
    }
    draining = true
    shutdownBegun.abort()
    logger.info({ signal }, 'shutting down: no new connections; answering requests in flight')
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline passed; closing the remaining connections')
      server.closeAllConnections()
    }, SHUTDOWN_DEADLINE_MS)
    deadline.unref()
    // close() stops accepting and closes the connections idle now. Every answer from now on says
    // `Connection: close` (the edge reads shutdownBegun), so Node closes each busy connection once it
    // is answered, and its client sends nothing more on it: no request that reached the service is
    // cut off unanswered.
    server.close(() => {
      // The requests in flight are answered; only now may the store go.
      store
        .close()
        .catch((error: unknown) => logger.warn({ err: error }, 'closing the store failed'))
        .finally(() => {
          logger.info('stopped')
          process.exit(0)
        })
    })
  }
  process.on('SIGTERM', shutdown)
  process.on('SIGINT', shutdown)
}
