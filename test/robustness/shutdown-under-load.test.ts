import { request as httpRequest, Agent } from 'node:http'
import { connect } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { heldCreate } from '../support/held-create.js'
import { aNewPet, aPet } from '../support/pet-builder.js'
import { spawnService, waitForUrl } from '../support/spawn-service.js'
import { TEST_KEY } from '../support/start-api.js'

/** Clients sending requests, each on a keep-alive connection of its own. */
const WORKERS = 20
/** What the service answers first to a request that says `Expect: 100-continue`, once it has it. */
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'

interface Answer {
  readonly status: number
  readonly body: string
}

/** One request on a keep-alive agent; resolves with the whole answer or rejects with the socket error. */
const call = (url: URL, agent: Agent, method: string, path: string, body?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const pending = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent,
        headers: {
          authorization: `Bearer ${TEST_KEY}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
        response.on('end', () =>
          response.complete ? resolve({ status: response.statusCode ?? 0, body: text }) : reject(new Error('answer cut off')),
        )
        response.on('error', reject)
      },
    )
    pending.on('error', reject)
    pending.end(body)
  })

/** A bound on probing for a refused connection, only so that a service that never stops listening fails the test. */
const MAX_PROBES = 1000

/** Connects and hangs up: 'connected', or the error's code. */
const probe = (url: URL): Promise<string> =>
  new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname)
    socket.on('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
  })

const Shutdown = suite('Graceful shutdown under load')

Shutdown(
  'SIGTERM under load: accepted requests get full answers, idle connections close, new ones are refused, exit 0 in time',
  async () => {
    const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY })
    const url = new URL(await waitForUrl(service))
    const agent = new Agent({ keepAlive: true, maxSockets: WORKERS })

    // An idle keep-alive connection: one answered request, then silence.
    const idle = connect(Number(url.port), url.hostname)
    const idleClosed = new Promise<void>((resolve) => idle.on('close', () => resolve()))
    const idleAnswered = new Promise<void>((resolve) => idle.once('data', () => resolve()))
    idle.on('error', () => undefined)
    idle.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`)

    // A request certainly in flight across the signal: its body is only finished after it.
    const held = heldCreate(url, JSON.stringify(aNewPet({ name: 'held across SIGTERM' })))

    // Steady load from every worker until the service is gone.
    let signalled = false
    const errorsBeforeSignal: string[] = []
    const badAnswers: string[] = []
    let answered = 0
    // The signal waits until each worker was answered (or stopped, which is then reported): the load is on.
    const started = new Set<number>()
    let allStarted = (): void => undefined
    const loadOn = new Promise<void>((resolve) => (allStarted = resolve))
    const markStarted = (index: number): void => {
      started.add(index)
      if (started.size === WORKERS) allStarted()
    }
    const worker = async (index: number): Promise<void> => {
      for (;;) {
        try {
          const answer =
            index % 2 === 0
              ? await call(url, agent, 'GET', '/v1/pets?limit=5')
              : await call(url, agent, 'POST', '/v1/pets', JSON.stringify(aNewPet({ name: `w${index}`, categoryId: index })))
          answered += 1
          markStarted(index)
          if (answer.status >= 500) badAnswers.push(`${answer.status} ${answer.body}`)
          JSON.parse(answer.body)
        } catch (error) {
          // After the signal a request may meet a closed connection before it was received: allowed.
          // An answer that started but was cut off never is.
          const message = (error as Error).message
          if (!signalled) errorsBeforeSignal.push(message)
          if (message === 'answer cut off') badAnswers.push(message)
          markStarted(index)
          return
        }
      }
    }
    const workers = Array.from({ length: WORKERS }, (_, index) => worker(index))

    await Promise.all([loadOn, held.received, idleAnswered])
    signalled = true
    const signalAt = performance.now()
    service.child.kill('SIGTERM')
    // Logged as shutdown begins, an instant before the service stops listening: a connection made
    // in that instant is still taken (then closed, or reset). From then on, while the held request
    // is still unanswered (so the service is still running), every new connection is refused.
    await service.printed(/shutting down/)
    const probes: string[] = []
    while (probes.at(-1) !== 'ECONNREFUSED' && probes.length < MAX_PROBES) probes.push(await probe(url))
    held.finish()

    const heldAnswer = await held.answer
    await Promise.all(workers)
    await idleClosed
    const code = await service.exited
    const elapsed = performance.now() - signalAt
    agent.destroy()

    console.log(
      `  shutdown: ${answered} answers under load, refused at probe ${probes.length}, exit ${String(code)} ${Math.round(elapsed)} ms after SIGTERM`,
    )
    assert.is(heldAnswer.status, 201)
    assert.equal(JSON.parse(heldAnswer.text), aPet({ id: (JSON.parse(heldAnswer.text) as { id: number }).id, name: 'held across SIGTERM' }))
    assert.equal(errorsBeforeSignal, [])
    assert.equal(badAnswers, [])
    assert.ok(answered >= WORKERS)
    assert.is(probes.at(-1), 'ECONNREFUSED', probes.join(', '))
    assert.is(code, 0)
    // In time: the requests in flight were answered and the process stopped before the deadline,
    // which would have closed the connections left (and said so).
    assert.match(service.stdout(), '"msg":"stopped"')
    assert.not.match(service.stdout(), 'shutdown deadline passed')
  },
)

/**
 * A keep-alive connection with a create in flight: the service has its request (it said `100
 * Continue`) and its body is held back until `finish` is called.
 */
const heldRawCreate = (url: URL, name: string) => {
  const body = JSON.stringify(aNewPet({ name }))
  const socket = connect(Number(url.port), url.hostname)
  socket.on('error', () => undefined)
  let text = ''
  let continued = (): void => undefined
  const received = new Promise<void>((resolve) => (continued = resolve))
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8')
    if (text.startsWith(CONTINUE)) continued()
  })
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(text)))
  socket.write(
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n${body.slice(0, 10)}`,
  )
  return { received, finish: () => socket.write(body.slice(10)), closed }
}

Shutdown('After SIGTERM, answers say Connection: close, and the connections busy at the signal lose no request', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY })
  const url = new URL(await waitForUrl(service))
  const held = Array.from({ length: 5 }, (_, index) => heldRawCreate(url, `busy ${index}`))
  await Promise.all(held.map((connection) => connection.received))
  service.child.kill('SIGTERM')
  await service.printed(/shutting down/)
  for (const connection of held) connection.finish()
  // Each connection is closed by the service once answered: the client is told, and sends nothing more on it.
  const answers = await Promise.all(held.map((connection) => connection.closed))
  for (const answer of answers) {
    assert.ok(answer.startsWith(`${CONTINUE}HTTP/1.1 201 Created\r\n`), answer)
    assert.match(answer, /\r\nConnection: close\r\n/, answer)
  }
  assert.is(await service.exited, 0)
})

Shutdown.run()
