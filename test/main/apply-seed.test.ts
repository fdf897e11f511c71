import * as E from 'fp-ts/Either'
import * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { StoreError } from '../../src/domain/errors.js'
import { applySeed, seedRetryDelayMs } from '../../src/main/seed/apply-seed.js'
import type { SeedOutcome } from '../../src/store/store.js'
import { capturedLogger } from '../support/captured-logger.js'
import { until } from '../support/until.js'
import { aNewPet } from '../support/pet-builder.js'

const SEED = { source: 'demo', pets: [aNewPet()] }
const CONFIG = { seed: SEED, testTarget: false } as const

const REFUSED: StoreError = { _tag: 'StoreFailed', detail: 'seed: not authorized' }
const AWAY: StoreError = { _tag: 'StoreUnavailable', detail: 'seed: no server' }
const SEEDED: SeedOutcome = { kind: 'seeded', count: 1 }

/** A store whose seed calls answer `outcomes` in turn, the last one again and again. */
const storeAnswering = (...outcomes: ReadonlyArray<E.Either<StoreError, SeedOutcome>>) => {
  let calls = 0
  return {
    store: {
      seed: () => {
        calls += 1
        return TE.fromEither(outcomes[Math.min(calls, outcomes.length) - 1] ?? E.left(AWAY))
      },
    },
    calls: () => calls,
  }
}

/** A seed run whose gate is a flag, stopped by `shutdown`, retrying after `retryDelayMs`. */
const seedRun = (retryDelayMs: (failures: number) => number = () => 0) => {
  const shutdown = new AbortController()
  const gate = { open: false }
  return { gate, shutdown, run: { settled: () => (gate.open = true), shutdown: shutdown.signal, retryDelayMs } }
}

const linesOf = (lines: () => ReadonlyArray<Record<string, unknown>>): ReadonlyArray<string> =>
  lines().map((line) => `${String(line.level)} ${String(line.msg)}`)

/** What applySeed logs after its first try, and whether it settled, for a store whose seed call answers `outcome`. */
const applied = async (outcome: E.Either<StoreError, SeedOutcome>) => {
  const { logger, lines } = capturedLogger()
  const { gate, shutdown, run } = seedRun(() => 60_000)
  await applySeed(CONFIG, storeAnswering(outcome).store, logger, run)
  shutdown.abort()
  return { settled: gate.open, lines: linesOf(lines).slice(0, 1) }
}

const Apply = suite('Applying the seed at start: one line saying what happened')

Apply('a start that applied the seed, or finished one, says it seeded the store; one on a store holding pets says it left it', async () => {
  assert.equal(await applied(E.right({ kind: 'seeded', count: 1 })), {
    settled: true,
    lines: ['30 seeded the store with 1 pets from demo'],
  })
  assert.equal(await applied(E.right({ kind: 'not-empty' })), {
    settled: true,
    lines: ['30 seed demo not applied: the store already holds pets'],
  })
})

Apply('a store that refuses the seed is an error and one that is away a warning; neither opens the gate', async () => {
  assert.equal(await applied(E.left(REFUSED)), {
    settled: false,
    lines: [
      '50 seed demo not applied: the store refused it; retrying until it is applied (fix the cause; until then the service is not ready)',
    ],
  })
  assert.equal(await applied(E.left(AWAY)), {
    settled: false,
    lines: ['40 seed demo not applied yet: the store is unavailable; retrying'],
  })
})

const Retry = suite('A seed not applied is tried again until it is applied or the service shuts down')

Retry('a refused or unavailable seed is tried again, each refusal an error, and the gate opens once it is applied', async () => {
  const { logger, lines } = capturedLogger()
  const { gate, run } = seedRun()
  const answers = storeAnswering(E.left(AWAY), E.left(REFUSED), E.left(REFUSED), E.right(SEEDED))
  await applySeed(CONFIG, answers.store, logger, run)
  assert.not.ok(gate.open, 'the first try failed: the gate stays shut')
  await until(() => gate.open, 'the gate opened')
  assert.is(answers.calls(), 4)
  assert.equal(
    linesOf(lines).map((line) => line.slice(0, 2)),
    ['40', '50', '50', '30'],
  )
  assert.is(linesOf(lines)[3], '30 seeded the store with 1 pets from demo')
})

Retry('waits 1 s after the first failure, twice as long after each next, never more than 30 s', () => {
  assert.equal([1, 2, 3, 4, 5, 6, 7, 50].map(seedRetryDelayMs), [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
})

Retry('shutdown during a wait ends the retries: the seed is not tried again and the gate stays shut', async () => {
  const { logger, lines } = capturedLogger()
  // A wait that would outlast the test: only the shutdown can end it.
  const { gate, shutdown, run } = seedRun(() => 60_000)
  const answers = storeAnswering(E.left(AWAY))
  await applySeed(CONFIG, answers.store, logger, run)
  shutdown.abort()
  await until(() => linesOf(lines).includes('30 seed demo not applied: the service is shutting down'), 'the seed stopped')
  assert.is(answers.calls(), 1)
  assert.not.ok(gate.open)
})

Retry('shutdown during a try ends the retries once it fails, without a warning', async () => {
  const { logger, lines } = capturedLogger()
  const { gate, shutdown, run } = seedRun()
  let calls = 0
  const store = {
    seed: () => {
      calls += 1
      // The service shuts down while this try runs; it fails as the store closes.
      if (calls === 2) shutdown.abort()
      return TE.left(AWAY)
    },
  }
  await applySeed(CONFIG, store, logger, run)
  await until(() => linesOf(lines).includes('30 seed demo not applied: the service is shutting down'), 'the seed stopped')
  assert.is(calls, 2)
  assert.equal(linesOf(lines), [
    '40 seed demo not applied yet: the store is unavailable; retrying',
    '30 seed demo not applied: the service is shutting down',
  ])
  assert.not.ok(gate.open)
})

Apply.run()
Retry.run()
