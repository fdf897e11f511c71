import { randomBytes } from 'node:crypto'
import * as E from 'fp-ts/Either'
import { readConfig } from './config.js'
import { refuseToStart } from './refuse-to-start.js'
import { runService, serviceLogger } from './service.js'
import { openStore } from './store.js'

/** A key for a run that was given none: 32 characters a bearer token can carry. */
export const generateKey = (): string => randomBytes(24).toString('base64url')

/**
 * Start-up: reads the settings from `env`, opens the store they name and starts the service on it; a setting that cannot be used stops start-up with every problem and exit status 1.
 */
export const main = async (env: Readonly<Record<string, string | undefined>>): Promise<void> => {
  const config = readConfig(env, generateKey)
  if (E.isLeft(config)) return refuseToStart(config.left)
  const logger = serviceLogger(config.right)
  const store = await openStore(config.right.store, config.right.seed?.pets, (level, message) =>
    logger[level]({ store: 'mongodb' }, message),
  )
  if (E.isLeft(store)) return refuseToStart([store.left])
  await runService(config.right, store.right, logger)
}
