import * as E from 'fp-ts/Either'
import * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { StoreError } from '../../src/domain/errors.js'
import { applySeed } from '../../src/main/seed/apply-seed.js'
import type { SeedOutcome } from '../../src/ports/store.js'
import { capturedLogger } from '../support/captured-logger.js'

const SEED = { source: 'demo', pets: [{ name: 'Rex', categoryId: 1, status: 'available' as const }] }

/** What applySeed logs, and whether it settled, for a store whose seed call answers `outcome`. */
const applied = async (outcome: E.Either<StoreError, SeedOutcome>) => {
  const { logger, lines } = capturedLogger()
  let settled = false
  await applySeed({ seed: SEED, sandboxes: 'off' }, { seed: () => TE.fromEither(outcome) }, logger, () => (settled = true))
  return { settled, lines: lines().map((line) => `${String(line.level)} ${String(line.msg)}`) }
}

const Apply = suite('Applying the seed at start: one line saying what happened')

Apply('only the start that seeded the store says it seeded the store; one that finished another start’s seed says so', async () => {
  assert.equal(await applied(E.right({ kind: 'seeded', count: 1 })), {
    settled: true,
    lines: ['30 seeded the store with 1 pets from demo'],
  })
  assert.equal(await applied(E.right({ kind: 'finished', count: 1 })), {
    settled: true,
    lines: ['30 seed demo: finished the seed another start began (1 pets)'],
  })
  assert.equal(await applied(E.right({ kind: 'not-empty' })), {
    settled: true,
    lines: ['30 seed demo not applied: the store already holds pets'],
  })
})

Apply('a store that refuses the seed for good is reported once as an error; one that is away is retried', async () => {
  assert.equal(await applied(E.left({ _tag: 'StoreFailed', detail: 'seed: not authorized' })), {
    settled: true,
    lines: ['50 seed demo not applied: the store refused it; fix the cause and restart'],
  })
  assert.equal(await applied(E.left({ _tag: 'StoreUnavailable', detail: 'seed: no server' })), {
    settled: false,
    lines: ['40 seed demo not applied yet: the store is unavailable; retrying'],
  })
})

Apply.run()
