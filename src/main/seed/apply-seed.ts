import * as E from 'fp-ts/Either'
import type { Logger } from 'pino'
import type { Store } from '../../ports/store.js'
import type { Config } from '../config.js'

/** How long to wait before trying a seed again when the store was unavailable at start. */
const SEED_RETRY_MS = 5_000

/**
 * Applies the seed to the shared data set and logs what happened; with sandboxes on, each sandbox
 * is seeded when first used instead. A store that is down at start is tried again until it answers;
 * one that refuses the seed for good (StoreFailed) is reported once, as an error.
 */
export const applySeed = (
  config: Pick<Config, 'seed' | 'sandboxes'>,
  store: Pick<Store, 'seed'>,
  logger: Logger,
  settled: () => void,
): Promise<void> => {
  const seed = config.seed
  if (seed === undefined) {
    settled()
    return Promise.resolve()
  }
  if (config.sandboxes === 'per-key') {
    logger.info(
      { seed: seed.source, pets: seed.pets.length },
      `each sandbox starts from the seed ${seed.source} (${seed.pets.length} pets)`,
    )
    settled()
    return Promise.resolve()
  }
  return store
    .seed()()
    .then((outcome) => {
      if (E.isRight(outcome) || outcome.left._tag === 'StoreFailed') settled()
      if (E.isLeft(outcome) && outcome.left._tag === 'StoreFailed') {
        // Retrying cannot help (refused credentials, a setting the server rejects): say so once.
        logger.error(
          { seed: seed.source, detail: outcome.left.detail },
          `seed ${seed.source} not applied: the store refused it; fix the cause and restart`,
        )
      } else if (E.isLeft(outcome)) {
        logger.warn(
          { seed: seed.source, detail: outcome.left.detail },
          `seed ${seed.source} not applied yet: the store is unavailable; retrying`,
        )
        setTimeout(() => void applySeed(config, store, logger, settled), SEED_RETRY_MS).unref()
      } else if (outcome.right.kind === 'seeded') {
        logger.info(
          { seed: seed.source, pets: outcome.right.count },
          `seeded the store with ${outcome.right.count} pets from ${seed.source}`,
        )
      } else if (outcome.right.kind === 'finished') {
        logger.info(
          { seed: seed.source, pets: outcome.right.count },
          `seed ${seed.source}: finished the seed another start began (${outcome.right.count} pets)`,
        )
      } else {
        logger.info({ seed: seed.source }, `seed ${seed.source} not applied: the store already holds pets`)
      }
    })
}
