import { type IncomingHttpHeaders, request } from 'node:http'
import { TEST_KEY } from './start-api.js'

export interface HeldCreate {
  /**
   * Resolves once the service has the request and is reading its body: it answered `100 Continue`
   * (the request says `Expect: 100-continue`). From then on the request is in flight, for certain,
   * until `finish` sends the rest of the body.
   */
  readonly received: Promise<void>
  readonly finish: () => void
  /** The whole answer; rejects when the connection fails first. */
  readonly answer: Promise<{ readonly status: number; readonly headers: IncomingHttpHeaders; readonly text: string }>
  readonly destroy: () => void
}

/**
 * `POST /v1/pets` with TEST_KEY whose body is sent in two parts: the first ten bytes at once, the
 * rest on `finish`. A test that needs a request in flight waits for `received` rather than for a
 * while, which a busy machine can stretch past whatever the test does next.
 */
export const heldCreate = (url: URL, body: string, declaredLength: number = Buffer.byteLength(body)): HeldCreate => {
  let received = (): void => undefined
  let failed: (error: Error) => void = () => undefined
  const whenReceived = new Promise<void>((resolve, reject) => {
    received = resolve
    failed = reject
  })
  const pending = request({
    host: url.hostname,
    port: url.port,
    method: 'POST',
    path: '/v1/pets',
    headers: {
      authorization: `Bearer ${TEST_KEY}`,
      'content-type': 'application/json',
      'content-length': declaredLength,
      expect: '100-continue',
    },
  })
  pending.on('continue', () => received())
  const answer = new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    pending.on('error', (error) => {
      failed(error)
      reject(error)
    })
    pending.on('response', (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }))
      response.on('error', reject)
    })
  })
  // A test that never finishes its request (it stops the service meanwhile) need not await the answer.
  answer.catch(() => undefined)
  whenReceived.catch(() => undefined)
  pending.write(body.slice(0, 10))
  return { received: whenReceived, finish: () => pending.end(body.slice(10)), answer, destroy: () => pending.destroy() }
}
