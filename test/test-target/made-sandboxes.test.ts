import * as E from 'fp-ts/Either'
import type * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { madeKeys } from '../../adapters/test-target/made-keys.js'
import { CONFIGURED_SANDBOX } from '../../adapters/test-target/failures.js'
import { faultScripts } from '../../adapters/test-target/fault-script.js'
import { contractCoverage } from '../../adapters/test-target/contract-coverage.js'
import { keptWhileOpen } from '../../adapters/test-target/made-sandboxes.js'
import { requestJournal } from '../../adapters/test-target/request-journal.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { Client } from '../../src/domain/authenticator.js'
import { DEFAULT_SANDBOX_BUDGET } from '../../src/store/sandbox-budget.js'
import { perKeySandboxes } from '../../adapters/test-target/per-key-sandboxes.js'
import { aNewPet } from '../support/pet-builder.js'
import { keepAnswered } from '../support/kept-requests.js'

const run = async <A>(task: TE.TaskEither<unknown, A>): Promise<A> => {
  const result = await task()
  if (E.isLeft(result)) throw new Error(`failed: ${JSON.stringify(result.left)}`)
  return result.right
}

/** The sandboxes of a memory store, with the journal and fault scripts the HTTP adapter keeps beside them. */
const sandboxesWithState = (options: Parameters<typeof madeKeys>[0] = {}) => {
  const store = memoryStore([aNewPet({ name: 'seeded' })])
  const made = madeKeys(options)
  const sandboxes = perKeySandboxes(store.dataSets, made)
  const journal = requestJournal(DEFAULT_SANDBOX_BUDGET.journalBytes)
  const scripts = faultScripts()
  const coverage = contractCoverage(DEFAULT_SANDBOX_BUDGET.coverageBytes)
  const kept = keptWhileOpen(sandboxes, coverage.noting(journal), scripts, coverage)
  /** What the service holds for a sandbox beside its store: its journal, fault script and contract coverage. */
  const holdsFor = (sandbox: string): boolean =>
    [...journal.list(sandbox, { headers: [] })].length > 0 ||
    scripts.get(sandbox).length > 0 ||
    coverage.of(sandbox, [{ operation: 'listPets', status: 200, codes: [] }], []).totals.responses.reached > 0
  return { store, made, sandboxes, kept, holdsFor }
}

/** A sandbox made, its key authenticated, and used as a request would: a create, a journal entry (and its coverage), a fault script, an advanced clock. */
const makeAndUse = async ({ sandboxes, kept }: ReturnType<typeof sandboxesWithState>): Promise<Client> => {
  const { key } = await run(sandboxes.make())
  const client = await run(sandboxes.madeKeys.authenticate(key))
  const useCases = await run(sandboxes.useCasesFor(client))
  await run(useCases.createPet(aNewPet()))
  keepAnswered(kept.journal, client.scope, '/v1/pets', { operation: 'listPets', status: 200 })
  kept.scripts?.replace(client.scope, [{ operation: 'getPet', fault: '503', times: 1 }])
  await run(sandboxes.advance(client, 60_000))
  return client
}

const Churn = suite('Sandboxes made at run time, under churn')

Churn('Memory stays bounded under churn: 10,000 sandboxes made, used and ended leave nothing held', async () => {
  const state = sandboxesWithState()
  const ended: string[] = []
  for (let index = 0; index < 10_000; index += 1) {
    const client = await makeAndUse(state)
    assert.ok(state.holdsFor(client.scope))
    await run(state.sandboxes.end(client))
    ended.push(client.scope)
  }
  assert.is(state.made.size(), 0)
  assert.is(state.store.dataSets.size(), 0)
  assert.not.ok(ended.some(state.holdsFor))
})

Churn('Memory stays bounded under churn: 10,000 sandboxes made, used and left to expire are freed by the next one made', async () => {
  let time = 0
  const state = sandboxesWithState({ max: 10_000, idleSeconds: 60, now: () => time })
  const left: string[] = []
  for (let index = 0; index < 10_000; index += 1) left.push((await makeAndUse(state)).scope)
  assert.is(state.store.dataSets.size(), 10_000)
  time += 60_000
  await makeAndUse(state)
  assert.is(state.made.size(), 1)
  assert.is(state.store.dataSets.size(), 1)
  assert.not.ok(left.some(state.holdsFor))
})

Churn('A sandbox left to expire is freed by the next key authenticated, before that key is answered', async () => {
  let time = 0
  const state = sandboxesWithState({ idleSeconds: 60, now: () => time })
  const left = await makeAndUse(state)
  time = 30_000
  const { key } = await run(state.sandboxes.make())
  time = 60_000
  assert.ok(E.isRight(await state.sandboxes.madeKeys.authenticate(key)()))
  assert.not.ok(state.holdsFor(left.scope))
  assert.is(state.made.size(), 1)
  assert.is(state.store.dataSets.size(), 0)
})

Churn.run()

const Ended = suite('A sandbox that ended')

Ended(
  'A request of a sandbox that ended while it was on its way keeps nothing: no journal entry, no fault script, no data, no clock',
  async () => {
    const state = sandboxesWithState()
    const client = await makeAndUse(state)
    await run(state.sandboxes.end(client))
    keepAnswered(state.kept.journal, client.scope, '/v1/pets/1', { operation: 'getPet', status: 200 })
    state.kept.scripts?.replace(client.scope, [{ operation: 'listPets', fault: '500', times: 1 }])
    assert.equal(await state.sandboxes.useCasesFor(client)(), E.left({ _tag: 'Unauthorized', reason: 'invalid' }))
    assert.equal(await state.sandboxes.reset(client)(), E.left({ _tag: 'Unauthorized', reason: 'invalid' }))
    assert.equal(await state.sandboxes.advance(client, 1000)(), E.left({ _tag: 'Unauthorized', reason: 'invalid' }))
    assert.equal(await state.sandboxes.end(client)(), E.left({ _tag: 'Unauthorized', reason: 'invalid' }))
    assert.is(state.sandboxes.clockOf(client.scope).advancedMs(), 0)
    assert.not.ok(state.holdsFor(client.scope))
    assert.is(state.store.dataSets.size(), 0)
  },
)

Ended("A configured key's sandbox is never ended, and everything is kept for it", async () => {
  const state = sandboxesWithState()
  const configured = { keyId: '01234567', scope: 'c'.repeat(64) }
  assert.equal(await state.sandboxes.end(configured)(), E.left(CONFIGURED_SANDBOX))
  keepAnswered(state.kept.journal, configured.scope, '/v1/pets', { operation: 'listPets', status: 200 })
  assert.ok(state.holdsFor(configured.scope))
  assert.ok(E.isRight(await state.sandboxes.useCasesFor(configured)()))
})

Ended.run()
