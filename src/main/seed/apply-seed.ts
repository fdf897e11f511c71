import { setTimeout as sleep } from 'node:timers/promises'
import * as E from 'fp-ts/Either'
import type { Logger } from 'pino'
import type { StoreError } from '../../domain/errors.js'
import type { SeedOutcome, Store } from '../../store/store.js'
import type { Config } from '../config.js'

const FIRST_RETRY_MS = 1_000
const LONGEST_RETRY_MS = 30_000

/**
 * How long to wait after the `failures`-th failed try before the next: 1 s, doubled each time, at
 * most 30 s, so that a store back after a long outage is seeded within 30 s without being asked
 * every second meanwhile.
 */
export const seedRetryDelayMs = (failures: number): number => Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1))

/** What applySeed reports to, and what stops it. */
interface SeedRun {
  /** Called once, when the seed is applied or found not needed: the seed gate opens. */
  readonly settled: () => void
  /** Aborted when the service shuts down: the seed is not tried again. */
  readonly shutdown: AbortSignal
  /** The wait after a failed try; seedRetryDelayMs unless given. */
  readonly retryDelayMs?: (failures: number) => number
}

const logApplied = (logger: Logger, source: string, outcome: SeedOutcome): void => {
  if (outcome.kind === 'seeded') {
    logger.info({ seed: source, pets: outcome.count }, `seeded the store with ${outcome.count} pets from ${source}`)
  } else {
    logger.info({ seed: source }, `seed ${source} not applied: the store already holds pets`)
  }
}

/**
 * A store that is away (StoreUnavailable) passes by itself: a warning. One that refuses the seed
 * (StoreFailed: refused credentials or rights, a write concern the replica set cannot meet, a
 * collection validator that rejects the pets) refuses it until someone acts: an error, at every
 * try, so that the log says so for as long as it lasts; tried again all the same, so that the
 * seed is applied, and the service ready, once the cause is fixed, without a restart.
 */
const logFailed = (logger: Logger, source: string, error: StoreError, retryInMs: number): void => {
  if (error._tag === 'StoreFailed') {
    logger.error(
      { seed: source, detail: error.detail, retryInMs },
      `seed ${source} not applied: the store refused it; retrying until it is applied (fix the cause; until then the service is not ready)`,
    )
  } else {
    logger.warn({ seed: source, detail: error.detail, retryInMs }, `seed ${source} not applied yet: the store is unavailable; retrying`)
  }
}

/**
 * Applies the seed to the shared data set and logs what happened; with sandboxes on, each sandbox
 * is seeded when first used instead. Resolves after the first try, so that clients connecting at
 * once see the seeded store; a failed try is repeated in the background, with waits growing to
 * 30 s, until the seed is applied or the service shuts down. Until then the seed gate stays shut:
 * a create that landed first would make the store hold a pet, and the seed would never be applied.
 */
export const applySeed = async (
  config: Pick<Config, 'seed' | 'testTarget'>,
  store: Pick<Store, 'seed'>,
  logger: Logger,
  { settled, shutdown, retryDelayMs = seedRetryDelayMs }: SeedRun,
): Promise<void> => {
  const seed = config.seed
  if (seed === undefined) return settled()
  if (config.testTarget) {
    logger.info(
      { seed: seed.source, pets: seed.pets.length },
      `each sandbox starts from the seed ${seed.source} (${seed.pets.length} pets)`,
    )
    return settled()
  }
  const stopped = (): void => logger.info({ seed: seed.source }, `seed ${seed.source} not applied: the service is shutting down`)
  const tryFrom = async (failures: number): Promise<void> => {
    const outcome = await store.seed()()
    if (E.isRight(outcome)) {
      logApplied(logger, seed.source, outcome.right)
      return settled()
    }
    if (shutdown.aborted) return stopped()
    const waitMs = retryDelayMs(failures + 1)
    logFailed(logger, seed.source, outcome.left, waitMs)
    // Unreferenced: a wait alone does not keep the process alive.
    void sleep(waitMs, undefined, { signal: shutdown, ref: false }).then(() => tryFrom(failures + 1), stopped)
  }
  await tryFrom(0)
}
