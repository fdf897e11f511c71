import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startPetStore } from '../../src/main/test-target/start-pet-store.js'
import { aNewPet } from '../support/pet-builder.js'
import { send } from '../support/start-api.js'

const Start = suite('startPetStore (petstore-service/testing)')

Start('startPetStore starts on a free port with the whole test target, faults included, and closes cleanly', async () => {
  const petStore = await startPetStore()
  assert.match(petStore.url, /^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/)
  assert.is((await send(petStore.url, 'GET', '/v1/pets', { key: petStore.key })).text, '[]')
  assert.is((await send(petStore.url, 'POST', '/v1/sandbox/reset', { key: petStore.key })).status, 204)
  // Faults are on, as with PETSTORE_TEST_TARGET=on: a script can be set, and the preference is applied.
  assert.is((await send(petStore.url, 'PUT', '/v1/sandbox/faults', { key: petStore.key, body: [] })).status, 200)
  assert.is((await send(petStore.url, 'GET', '/v1/pets', { key: petStore.key, headers: { prefer: 'fault=503' } })).status, 503)
  const journal = await petStore.journal()
  assert.equal(
    journal.map(({ method, path, status }) => [method, path, status]),
    [['GET', '/v1/pets', 503]],
  )
  await petStore.close()
  const refused = await fetch(`${petStore.url}/healthz`).then(
    () => undefined,
    (error: unknown) => error,
  )
  assert.instance(refused, Error)
})

Start('startPetStore with a seed serves the seed and fails on request, its journal and report say so, and its clock moves', async () => {
  const petStore = await startPetStore({ seed: 'demo' })
  try {
    assert.is((await send(petStore.url, 'GET', '/v1/pets/6', { key: petStore.key })).status, 200)
    assert.is((await send(petStore.url, 'GET', '/v1/pets', { key: petStore.key, headers: { prefer: 'fault=503' } })).status, 503)
    assert.is((await petStore.journal({ limit: 1 }))[0]?.fault, '503')
    const report = await petStore.report()
    assert.equal(report.findings, [])
    assert.equal(
      report.deprecatedOperations.map((use) => [use.operation, use.count]),
      [['getPet', 1]],
    )
    assert.ok(report.coverage.faults.some((fault) => fault.fault === '503' && fault.reached))
    const clock = await petStore.advanceClock(86_400_000)
    assert.is(clock.advancedMs, 86_400_000)
    assert.ok(Date.parse(clock.now) > Date.now() + 86_000_000)
  } finally {
    await petStore.close()
  }
})

Start('startPetStore makes a sandbox per worker, and counts and filters what each was sent', async () => {
  const petStore = await startPetStore()
  try {
    const worker = await petStore.newSandbox()
    assert.is.not(worker.key, petStore.key)
    const created = await send(petStore.url, 'POST', '/v1/pets', { key: worker.key, body: aNewPet() })
    assert.is(created.status, 201)
    assert.is((await send(petStore.url, 'GET', '/v1/pets', { key: worker.key })).status, 200)
    // Nothing of the worker's shows in the service's own sandbox.
    assert.is((await send(petStore.url, 'GET', '/v1/pets', { key: petStore.key })).text, '[]')
    assert.is(await worker.count({ operation: 'createPet', status: 201 }), 1)
    assert.is(await worker.count(), 2)
    assert.equal(
      (await worker.journal({ method: 'GET' })).map(({ operation }) => operation),
      ['listPets'],
    )
    assert.is(await petStore.count({ operation: 'createPet' }), 0)
  } finally {
    await petStore.close()
  }
})

/** Sends `count` requests whose 4 KiB bodies fill the journal's part of the sandbox's budget in a few dozen, each refused 415 unread. */
const sendLarge = async (url: string, key: string, count: number): Promise<void> => {
  for (let index = 0; index < count; index += 1) {
    const body = `${index} `.padEnd(4096, 'x')
    assert.is((await send(url, 'POST', '/v1/pets', { key, body, headers: { 'content-type': 'text/plain' } })).status, 415)
  }
}

Start('journal() answers every entry the journal keeps, following each page’s Link; limit takes the newest', async () => {
  const petStore = await startPetStore()
  try {
    await sendLarge(petStore.url, petStore.key, 100)
    const kept = (await petStore.report()).journal.kept
    // One page holds at most 256 KiB of JSON: fewer entries than the journal keeps.
    const firstPage = await send(petStore.url, 'GET', '/v1/sandbox/requests?limit=1000', { key: petStore.key })
    assert.ok((firstPage.body as unknown[]).length < kept, `a page of ${(firstPage.body as unknown[]).length} of ${kept}`)
    const journal = await petStore.journal()
    assert.is(journal.length, kept)
    assert.equal(
      journal.map(({ sequence }) => sequence),
      Array.from({ length: kept }, (_, index) => 100 - index),
    )
    assert.equal(
      (await petStore.journal({ limit: 3 })).map(({ sequence }) => sequence),
      [100, 99, 98],
    )
  } finally {
    await petStore.close()
  }
})

Start('count() throws, saying why, when the journal no longer keeps every request it would count', async () => {
  const petStore = await startPetStore()
  try {
    await sendLarge(petStore.url, petStore.key, 100)
    const refused = await petStore.count({ operation: 'createPet' }).then(
      () => undefined,
      (error: unknown) => error,
    )
    assert.instance(refused, Error)
    assert.match(
      (refused as Error).message,
      /^count: \d+ entries match, but the journal no longer keeps every request since it was last cleared/,
    )
    // Counted after the oldest request it keeps, the count is exact.
    const oldest = (await petStore.journal()).at(-1)?.sequence ?? 0
    assert.is(await petStore.count({ operation: 'createPet', since: oldest - 1 }), 101 - oldest)
    assert.match(
      ((await petStore.count({ since: oldest - 2 }).catch((error: unknown) => error)) as Error).message,
      `after sequence ${oldest - 2}`,
    )
  } finally {
    await petStore.close()
  }
})

Start('two startPetStore services run side by side in one process, each with its own port and key', async () => {
  const [first, second] = await Promise.all([startPetStore(), startPetStore()])
  try {
    assert.is.not(first.url, second.url)
    assert.is.not(first.key, second.key)
    assert.is((await send(first.url, 'GET', '/v1/pets', { key: second.key })).status, 401)
  } finally {
    await Promise.all([first.close(), second.close()])
  }
})

Start('startPetStore takes no setting from the environment of the process', async () => {
  const before = { ...process.env }
  Object.assign(process.env, { PETSTORE_STORE: 'mongodb', NODE_ENV: 'production', PETSTORE_TEST_TARGET: 'off', PORT: 'not-a-port' })
  try {
    const petStore = await startPetStore()
    assert.is((await send(petStore.url, 'POST', '/v1/sandbox/reset', { key: petStore.key })).status, 204)
    await petStore.close()
  } finally {
    for (const name of ['PETSTORE_STORE', 'NODE_ENV', 'PETSTORE_TEST_TARGET', 'PORT']) {
      if (before[name] === undefined) delete process.env[name]
      else process.env[name] = before[name]
    }
  }
})

Start('startPetStore refuses a seed it cannot use, naming PETSTORE_SEED', async () => {
  const refused = await startPetStore({ seed: 'no-such-seed.json' }).then(
    () => undefined,
    (error: unknown) => error,
  )
  assert.instance(refused, Error)
  assert.match((refused as Error).message, /^startPetStore: PETSTORE_SEED/)
})

Start.run()
