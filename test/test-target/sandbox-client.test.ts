import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { connect, type FaultRule, PetStoreError, startPetStore } from '../../src/main/test-target/start-pet-store.js'
import { aNewPet } from '../support/pet-builder.js'
import { send, startApi, TEST_KEY } from '../support/start-api.js'

/** The error `work` is rejected with, or undefined when it is not. */
const refusal = (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  )

/** A service with its whole test target on, as PETSTORE_TEST_TARGET=on starts it, but started by other means than startPetStore. */
const startTestTarget = () => startApi({ sandboxes: memoryStore().dataSets })

const Client = suite('The typed client of petstore-service/testing')

Client('connect drives the sandbox of a service started anywhere: its fault script, set, read and cleared', async () => {
  const api = await startTestTarget()
  try {
    const sandbox = await connect({ url: `${api.baseUrl}/`, key: TEST_KEY })
    assert.is(sandbox.url, api.baseUrl)
    assert.is(sandbox.key, TEST_KEY)
    const rules: FaultRule[] = [
      { operation: 'createPet', when: { body: { name: 'Rex', tags: ['a', 1, null] } }, fault: '503', retryAfter: 0, times: 1 },
      { operation: 'listPets', answer: { status: 502, headers: { 'Content-Type': 'text/html' }, text: '<h1>Bad Gateway</h1>' } },
    ]
    assert.equal(await sandbox.setFaults(rules), [
      rules[0],
      { ...rules[1], answer: { ...rules[1]?.answer, headers: { 'content-type': 'text/html' } } },
    ])
    assert.is((await send(api.baseUrl, 'GET', '/v1/pets', { key: TEST_KEY, scripted: true })).text, '<h1>Bad Gateway</h1>')
    assert.equal(
      (await sandbox.faults()).map(({ operation }) => operation),
      ['createPet', 'listPets'],
    )
    await sandbox.clearFaults()
    assert.equal(await sandbox.faults(), [])
    assert.is((await send(api.baseUrl, 'GET', '/v1/pets', { key: TEST_KEY })).status, 200)
  } finally {
    await api.close()
  }
})

Client('connect reads, counts and clears the journal, reads the report, reads and moves the clock, and resets the sandbox', async () => {
  const api = await startTestTarget()
  try {
    const sandbox = await connect({ url: api.baseUrl, key: TEST_KEY })
    await sandbox.setFaults([{ operation: 'listPets', answer: { status: 200, body: [] }, times: 1 }])
    assert.is((await send(api.baseUrl, 'GET', '/v1/pets', { key: TEST_KEY, scripted: true })).status, 200)
    assert.is((await send(api.baseUrl, 'POST', '/v1/pets', { key: TEST_KEY, body: aNewPet({ name: 'Rex' }) })).status, 201)
    assert.equal(
      (await sandbox.journal()).map(({ sequence, operation, fault }) => [sequence, operation, fault]),
      [
        [2, 'createPet', null],
        [1, 'listPets', 'answer'],
      ],
    )
    assert.is(await sandbox.count({ fault: 'answer' }), 1)
    assert.is(await sandbox.count({ method: 'POST', header: ['content-type:application/json'] }), 1)
    assert.equal((await sandbox.report()).journal, { kept: 2, dropped: 0 })
    await sandbox.clearJournal()
    assert.is(await sandbox.count(), 0)
    assert.is((await sandbox.clock()).advancedMs, 0)
    assert.is((await sandbox.advanceClock(60_000)).advancedMs, 60_000)
    assert.is((await sandbox.clock()).advancedMs, 60_000)
    await sandbox.reset()
    assert.is((await sandbox.clock()).advancedMs, 0)
    assert.is((await send(api.baseUrl, 'GET', '/v1/pets', { key: TEST_KEY })).text, '[]')
  } finally {
    await api.close()
  }
})

Client('connect is refused, saying why, when the service’s test target is off', async () => {
  const api = await startApi()
  try {
    const refused = await refusal(connect({ url: api.baseUrl, key: TEST_KEY }))
    assert.instance(refused, PetStoreError)
    assert.is((refused as PetStoreError).code, 'route_not_found')
    assert.match((refused as Error).message, `connect: the pet store at ${api.baseUrl} has its test target off`)
    assert.match((refused as Error).message, 'PETSTORE_TEST_TARGET=on')
  } finally {
    await api.close()
  }
})

Client('connect is refused when the service does not take the key, and when nothing listens', async () => {
  const api = await startTestTarget()
  await api.close().then(() => undefined)
  const closed = await refusal(connect({ url: api.baseUrl, key: TEST_KEY }))
  assert.match((closed as Error).message, `connect: cannot reach ${api.baseUrl}`)
  const other = await startTestTarget()
  try {
    const refused = await refusal(connect({ url: other.baseUrl, key: 'not-a-key-of-this-service' }))
    assert.is((refused as PetStoreError).status, 401)
    assert.match((refused as Error).message, 'does not take this key')
  } finally {
    await other.close()
  }
})

Client('each method throws what the service answered when it refuses what it was asked, with its Error message', async () => {
  const api = await startTestTarget()
  try {
    const petStore = await connect({ url: api.baseUrl, key: TEST_KEY })
    const refused = await refusal(petStore.setFaults([{ operation: 'listPets', fault: '500', retryAfter: 1 }]))
    assert.instance(refused, PetStoreError)
    assert.is((refused as PetStoreError).status, 400)
    assert.is((refused as PetStoreError).code, 'invalid_body')
    assert.match((refused as Error).message, /^PUT \/v1\/sandbox\/faults answered 400 invalid_body: invalid fault script: .*retryAfter/)
    assert.match(((await refusal(petStore.advanceClock(-1))) as Error).message, /^POST \/v1\/sandbox\/clock answered 400 invalid_body: /)
  } finally {
    await api.close()
  }
})

Client('newSandbox().end() ends the made sandbox and its key; ending it again does nothing', async () => {
  await using petStore = await startPetStore()
  const worker = await petStore.newSandbox()
  assert.is(worker.url, petStore.url)
  assert.is((await worker.clock()).advancedMs, 0)
  await worker.end()
  assert.is((await send(petStore.url, 'GET', '/v1/pets', { key: worker.key })).status, 401)
  await worker.end()
  // The service's own sandbox is a configured key's: it is not a made one, and has no end().
  assert.not.ok('end' in petStore)
})

Client('await using ends a made sandbox, and closes a startPetStore service, when the block ends', async () => {
  let url = ''
  let workerKey = ''
  {
    await using petStore = await startPetStore()
    url = petStore.url
    {
      await using worker = await petStore.newSandbox()
      workerKey = worker.key
      assert.is((await send(url, 'GET', '/v1/pets', { key: workerKey })).status, 200)
    }
    assert.is((await send(url, 'GET', '/v1/pets', { key: workerKey })).status, 401)
  }
  assert.instance(await refusal(fetch(`${url}/healthz`)), Error)
})

Client.run()
