import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { capturedLogger } from '../support/captured-logger.js'
import { aNewPet } from '../support/pet-builder.js'
import { rawConnection } from '../support/raw-http.js'
import { gate } from '../support/sandbox-spaces.js'
import { startApi, TEST_KEY } from '../support/start-api.js'
import { until } from '../support/until.js'

/** A memory repository whose lists wait at one gate and whose inserts wait at another. */
const gatedRepository = () => {
  const pets = memoryPetRepository()
  const listing = gate()
  const inserting = gate()
  const repository: PetRepository = {
    ...pets,
    list: (query) =>
      pipe(
        TE.fromTask(listing.pass),
        TE.flatMap(() => pets.list(query)),
      ),
    insert: (draft, createId) =>
      pipe(
        TE.fromTask(inserting.pass),
        TE.flatMap(() => pets.insert(draft, createId)),
      ),
  }
  return { pets, repository, listing, inserting }
}

const LIST = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`
const GET_ONE = `GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`
const BODY = JSON.stringify(aNewPet())
const CREATE = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`

/** Each answer's status, and whether it said Connection: close. */
const answers = (text: string): Array<[number, boolean]> =>
  text
    .split(/(?=HTTP\/1\.1 \d{3} )/)
    .filter((answer) => answer !== '')
    .map((answer) => [Number(answer.slice(9, 12)), /\r\nConnection: close\r\n/i.test(answer.split('\r\n\r\n')[0] ?? '')])

const Shutdown = suite('Shutdown: every request carried out is answered before its connection closes')

Shutdown('When shutdown begins with pipelined requests in progress, then each is answered and only the last answer closes', async () => {
  const { pets, repository, listing, inserting } = gatedRepository()
  const shutdown = new AbortController()
  const api = await startApi({ pets: repository, shutdown: shutdown.signal })
  try {
    const connection = rawConnection(api.baseUrl)
    connection.socket.write(`${LIST}${CREATE}`)
    await Promise.all([listing.atGate, inserting.atGate])
    shutdown.abort()
    // The create is carried out (and its answer decided) before the list ahead of it is answered.
    inserting.open()
    listing.open()
    assert.equal(answers(await connection.closed), [
      [200, false],
      [201, true],
    ])
    assert.is((await TE.getOrElseW(() => () => Promise.resolve([]))(pets.list({ limit: 10 }))()).length, 1)
  } finally {
    await api.close()
  }
})

Shutdown('When a request arrives after its connection’s closing answer was decided, then it is not carried out', async () => {
  const { pets, repository, listing } = gatedRepository()
  const { logger, lines } = capturedLogger()
  const shutdown = new AbortController()
  const api = await startApi({ pets: repository, shutdown: shutdown.signal, logger })
  try {
    const connection = rawConnection(api.baseUrl)
    connection.socket.write(`${LIST}${GET_ONE}`)
    await listing.atGate
    shutdown.abort()
    // The GET is the latest request of the connection: its answer, queued behind the list's, closes it.
    await until(() => lines().some((line) => line.path === '/v1/pets/1'), 'the GET was answered')
    connection.socket.write(CREATE)
    await until(() => lines().some((line) => line.failure === 'ConnectionClosing'), 'the create was refused')
    listing.open()
    assert.equal(answers(await connection.closed), [
      [200, false],
      [404, true],
    ])
    assert.equal(await TE.getOrElseW(() => () => Promise.resolve([]))(pets.list({ limit: 10 }))(), [])
    const notCarriedOut = lines().find((line) => line.failure === 'ConnectionClosing')
    assert.equal([notCarriedOut?.method, notCarriedOut?.path, notCarriedOut?.status], ['POST', '/v1/pets', null])
  } finally {
    await api.close()
  }
})

Shutdown.run()
