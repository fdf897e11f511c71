import { connect, type Socket } from 'node:net'

export interface RawExchange {
  /** Everything the server sent until it closed the connection. */
  readonly text: string
}

/**
 * Only a guard against a connection the server never closes, so that the test fails instead of
 * hanging: far beyond the lowered server timeouts the tests wait for, however busy the machine.
 */
const GIVE_UP_MS = 10_000

/**
 * Writes raw bytes to the server (optionally more after a pause) and reads until the server closes
 * the connection: the way to see what Node answers to requests Koa never gets.
 */
export const rawExchange = (
  baseUrl: string,
  first: string | Uint8Array,
  options: {
    readonly later?: string
    readonly laterMs?: number
    /** End the client's side once `first` is written (a half-close), reading on until the server closes. */
    readonly halfClose?: boolean
  } = {},
): Promise<RawExchange> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = connect(Number(port), hostname)
    let text = ''
    const giveUp = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close within ${GIVE_UP_MS} ms; got: ${text}`))
    }, GIVE_UP_MS)
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearTimeout(giveUp)
      resolve({ text })
    })
    if (options.halfClose === true) socket.end(first)
    else socket.write(first)
    if (options.later !== undefined) setTimeout(() => socket.writable && socket.write(options.later ?? ''), options.laterMs ?? 0)
  })

/** Status and parsed JSON body of a raw HTTP/1.1 response. */
export const parseRawResponse = (text: string): { status: number; headers: string; body: unknown } => {
  const [head = '', body = ''] = text.split('\r\n\r\n')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
  return { status, headers: head, body: body === '' ? undefined : (JSON.parse(body) as unknown) }
}

/** A raw connection: what the server sent, and a promise of everything it sent once it closed. */
export const rawConnection = (baseUrl: string): { socket: Socket; received: () => string; closed: Promise<string> } => {
  const { hostname, port } = new URL(baseUrl)
  const socket = connect(Number(port), hostname)
  let text = ''
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
  socket.on('error', () => undefined)
  return { socket, received: () => text, closed: new Promise((resolve) => socket.on('close', () => resolve(text))) }
}
