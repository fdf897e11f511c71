import * as E from 'fp-ts/Either'
import pino, { type Logger } from 'pino'
import { staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'
import { buildApp } from '../../adapters/http/app.js'
import { cursorCodec } from '../../adapters/http/cursor.js'
import { createHttpServer } from '../../adapters/http/http-server.js'
import { keyRedactor } from '../../adapters/http/key-redaction.js'
import { petUseCases } from '../domain/use-cases.js'
import type { Config } from './config.js'
import type { AppExtension } from '../../adapters/http/extension.js'
import type { Redact } from '../../adapters/http/key-redaction.js'
import { listeningAnnouncement } from './announcement.js'
import { refuseToStart } from './refuse-to-start.js'
import { applySeed } from './seed/apply-seed.js'
import { seedGate } from '../store/seed-gate.js'
import type { DataSets } from '../store/data-sets.js'
import type { Store } from '../store/store.js'
import { whenStdinEnds } from './stdin-end.js'

/**
 * Log lines are buffered and written 4 KiB at a time, or every 100 ms, whichever comes first, and
 * whatever is buffered is written when the process exits; synchronously, so that a stdout that stops
 * reading makes the service wait rather than buffer without bound. Why, and what the alternatives
 * cost: docs/adr/1205-log-lines-in-batches-no-deferred-responses-no-answer-caches.md.
 */
const LOG_DESTINATION = { dest: 1, sync: true, minLength: 4096, periodicFlush: 100 }

/** How long shutdown waits for requests in flight before closing their connections. */
const SHUTDOWN_DEADLINE_MS = 10_000

/**
 * What redacts the configured keys, and, when PETSTORE_TEST_TARGET=on turns it on over the store's
 * data sets, the test target for client developers, whose made keys it redacts too. Off, none of
 * the test target's modules is loaded.
 */
const withTestTarget = async (
  config: Config,
  keys: ReadonlyArray<string>,
  space: DataSets | undefined,
  shutdown: AbortSignal,
): Promise<{ readonly redact: Redact; readonly testTarget?: AppExtension }> => {
  if (space === undefined) return { redact: keyRedactor(keys) }
  const { MADE_KEY_FORM, madeKeys } = await import('../../adapters/test-target/made-keys.js')
  const { testTarget } = await import('../../adapters/test-target/test-target.js')
  // The keys of sandboxes made at run time are not known yet: they are hidden by their form.
  const redact = keyRedactor(keys, [MADE_KEY_FORM])
  const made = madeKeys(config.madeSandboxes)
  return { redact, testTarget: testTarget({ space, madeKeys: made, redact, maxBodyBytes: config.maxBodyBytes, shutdown }) }
}

/** A service listening in this process. */
interface RunningService {
  /** Where it listens, such as `http://127.0.0.1:8080`. */
  readonly url: string
  /**
   * Shuts it down: no new connections, the requests in flight answered (their connections closed
   * after SHUTDOWN_DEADLINE_MS at the latest), then the store closed. Resolves when the store is
   * closed; a second call gets the same promise.
   */
  readonly close: () => Promise<void>
}

/**
 * Wires the adapters for `config` around `store`, seeds it, and listens; Left with Node's error when
 * it cannot listen. It leaves the process alone (no signal handler, no exit): `runService` adds
 * those for `npm start`, and `startPetStore` runs it inside a test suite.
 */
export const startService = async (
  config: Config,
  opened: Store,
  logger: Logger,
): Promise<E.Either<NodeJS.ErrnoException, RunningService>> => {
  // Readiness and creates wait for the seed to settle.
  const { store, open: seedSettled } = seedGate(opened)
  const keys = config.apiKeys.source === 'configured' ? config.apiKeys.keys : [config.apiKeys.key]
  // readConfig refuses the test target on a store without data sets.
  const space = config.testTarget ? store.dataSets : undefined
  let draining = false
  const shutdownBegun = new AbortController()
  const { redact, testTarget } = await withTestTarget(config, keys, space, shutdownBegun.signal)
  const app = buildApp({
    useCases: petUseCases(store.shared),
    ...(testTarget === undefined ? {} : { extension: testTarget }),
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
  await applySeed(config, store, logger, { settled: seedSettled, shutdown: shutdownBegun.signal })

  const refused = await new Promise<NodeJS.ErrnoException | undefined>((listened) => {
    server.once('error', listened)
    server.listen(config.port, config.host, () => {
      server.off('error', listened)
      listened(undefined)
    })
  })
  if (refused !== undefined) return E.left(refused)
  // Once listening, Node reports here only a connection it failed to accept (EMFILE); it goes on
  // accepting, and so does the service.
  server.on('error', (error: NodeJS.ErrnoException) =>
    logger.error({ code: error.code }, `accepting a connection failed: ${error.code ?? error.message}`),
  )
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  const url = `http://${host}:${port}`
  logger.info({ url, store: config.store.kind }, `listening on ${url}`)
  if (config.testTarget) logger.warn('PETSTORE_TEST_TARGET=on: any client with a key can force failures and delays with a Prefer header')
  if (config.madeSandboxes.lowered !== undefined) logger.warn(config.madeSandboxes.lowered)

  let closed: Promise<void> | undefined
  const close = (): Promise<void> => {
    closed ??= new Promise((done) => {
      draining = true
      shutdownBegun.abort()
      const deadline = setTimeout(() => {
        logger.warn('shutdown deadline passed; closing the remaining connections')
        server.closeAllConnections()
      }, SHUTDOWN_DEADLINE_MS)
      deadline.unref()
      // close() stops accepting and closes the connections idle now. The last answer of each busy
      // connection now says `Connection: close` (the edge reads shutdownBegun), so Node closes it once
      // it is answered, and its client sends nothing more on it: no request that reached the service
      // is cut off unanswered.
      server.close(() => {
        clearTimeout(deadline)
        // The requests in flight are answered; only now may the store go.
        store
          .close()
          .catch((error: unknown) => logger.warn({ err: error }, 'closing the store failed'))
          .finally(done)
      })
    })
    return closed
  }
  return E.right({ url, close })
}

/** The service's log on stdout, flushed at exit: made before the store, which logs to it too. */
export const serviceLogger = (config: Pick<Config, 'logLevel'>): Logger => {
  const destination = pino.destination(LOG_DESTINATION)
  // pino flushes only an asynchronous destination at exit; this one may hold up to 4 KiB of lines.
  process.once('exit', () => {
    try {
      destination.flushSync()
    } catch {
      // stdout is gone (a closed pipe): nothing can be written any more.
    }
  })
  return pino({ level: config.logLevel }, destination)
}

/**
 * The service as the process `main` and the benchmark run: its log on stdout, where it listens (and
 * a generated key) announced once on stderr, SIGTERM or SIGINT (or, when the settings say so, the
 * end of standard input) shutting it down with exit status 0, a signal during that shutdown
 * stopping it at once with 1, and status 1 when it cannot listen.
 */
export const runService = async (config: Config, store: Store, logger: Logger = serviceLogger(config)): Promise<void> => {
  const started = await startService(config, store, logger)
  if (E.isLeft(started)) {
    const { code, message } = started.left
    const problem = `cannot listen on ${config.host}:${config.port} (check HOST and PORT): ${code ?? message}`
    logger.fatal({ code }, problem)
    return refuseToStart([problem])
  }
  const service = started.right
  process.stderr.write(listeningAnnouncement(service.url, config.apiKeys))

  let stopping = false
  const shutdown = (cause: { readonly signal: NodeJS.Signals } | { readonly stdin: 'closed' }): void => {
    if (stopping) {
      // Standard input closing then (its harness ending after a signal) changes nothing.
      if ('stdin' in cause) return logger.info(cause, 'standard input closed during shutdown: still answering requests in flight')
      // A signal during shutdown means "now": the operator has stopped waiting for the requests in flight.
      logger.warn(cause, 'second signal: stopping at once')
      process.exit(1)
    }
    stopping = true
    logger.info(cause, 'shutting down: no new connections; answering requests in flight')
    void service.close().then(() => {
      logger.info('stopped')
      process.exit(0)
    })
  }
  process.on('SIGTERM', (signal) => shutdown({ signal }))
  process.on('SIGINT', (signal) => shutdown({ signal }))
  if (config.stopOnStdinClose) whenStdinEnds(() => shutdown({ stdin: 'closed' }))
}
