import type { Socket } from 'node:net'
import { PassThrough } from 'node:stream'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { whenClientLeaves } from '../../adapters/test-target/client-left.js'

/** A connection's readable side, as whenClientLeaves reads it: it ends when its client's FIN arrives. */
const connection = (): PassThrough => new PassThrough()

/** Ends the client's side and lets the stream say so ('end' comes once what was sent is read). */
const clientEnds = async (socket: PassThrough): Promise<void> => {
  socket.end()
  socket.resume()
  await new Promise((done) => socket.once('end', done))
}

const ClientLeft = suite("The requests in flight learn that their connection's client left")

ClientLeft('When the client ends its side, then every request still waiting is told, and none that stopped waiting', async () => {
  const socket = connection()
  const told: string[] = []
  const stops = ['first', 'second', 'third', 'fourth'].map((name) => whenClientLeaves(socket as unknown as Socket, () => told.push(name)))
  // One from the middle, then the first, then one already stopped again.
  stops[1]?.()
  stops[0]?.()
  stops[1]?.()
  await clientEnds(socket)
  assert.equal(told.sort(), ['fourth', 'third'])
})

ClientLeft('When the client had ended its side before the request arrived, then the request is never told', async () => {
  const socket = connection()
  await clientEnds(socket)
  let told = false
  whenClientLeaves(socket as unknown as Socket, () => (told = true))
  socket.emit('end')
  assert.is(told, false)
})

ClientLeft('When the client ends its side, then each waiting request is told once, and later ones are not told of it', async () => {
  const socket = connection()
  let told = 0
  whenClientLeaves(socket as unknown as Socket, () => (told += 1))
  await clientEnds(socket)
  whenClientLeaves(socket as unknown as Socket, () => (told += 10))
  assert.is(told, 1)
})

ClientLeft.run()
