import pino from 'pino'
import { staticKeyAuthenticator } from '../adapters/auth/static-key-authenticator.js'
import { buildApp } from '../adapters/http/app.js'
import { cursorCodec } from '../adapters/http/cursor.js'
import { createHttpServer } from '../adapters/http/http-server.js'
import { petUseCases } from './domain/use-cases.js'
import type { Config } from './config.js'
import type { Store } from './store.js'

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
 * Wires the adapters for `config` around `store`, listens, and handles shutdown: the composition
 * root shared by `npm start` and the benchmark, which passes a pre-seeded store.
 */
export const startService = (config: Config, store: Store): void => {
  const logger = pino({ level: config.logLevel })
  const keys = config.apiKeys.source === 'configured' ? config.apiKeys.keys : [config.apiKeys.key]
  let draining = false
  const shutdownBegun = new AbortController()
  const app = buildApp({
    useCases: petUseCases({ pets: store.repository, idempotency: store.idempotency }),
    health: { ready: store.repository.ready, draining: () => draining },
    authenticator: staticKeyAuthenticator(keys),
    logger,
    cursors: cursorCodec(config.cursorSecret),
    maxBodyBytes: config.maxBodyBytes,
    metrics: config.metrics,
    faults: config.faults,
    shutdown: shutdownBegun.signal,
    ...(config.corsOrigins === undefined ? {} : { corsOrigins: config.corsOrigins }),
    ...(config.rateLimit === undefined ? {} : { rateLimit: config.rateLimit }),
  })
  const server = createHttpServer(app, logger)

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
    // close() stops accepting and closes idle keep-alive connections; connections still busy become
    // idle once answered, so they are swept until none is left.
    setInterval(() => server.closeIdleConnections(), 50).unref()
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

