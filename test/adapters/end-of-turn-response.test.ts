import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { endOfTurnResponse } from '../../adapters/http/end-of-turn-response.js'

const EndOfTurn = suite('endOfTurnResponse: responses ended in one turn are sent together at its end')

EndOfTurn('Each response is sent whole, to its own client, with the callback given to end()', async () => {
  let ended = 0
  const server = createServer({ ServerResponse: endOfTurnResponse() }, (request, response) => {
    const body = JSON.stringify({ path: request.url })
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) })
    // A late answer, in a turn of its own, is sent like the others.
    if (request.url === '/late') setTimeout(() => response.end(body, () => (ended += 1)), 20)
    else response.end(body, () => (ended += 1))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    const paths = ['/late', ...Array.from({ length: 20 }, (_, index) => `/pets/${index}`)]
    const bodies = await Promise.all(paths.map(async (path) => (await fetch(`${base}${path}`)).json()))
    assert.equal(
      bodies,
      paths.map((path) => ({ path })),
    )
    assert.is(ended, paths.length)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

EndOfTurn('Nothing is sent before the turn that ended the response is over', async () => {
  const order: string[] = []
  const server = createServer({ ServerResponse: endOfTurnResponse() }, (_request, response) => {
    response.end('done', () => order.push('sent'))
    order.push('ended')
    assert.is(response.headersSent, false)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    assert.is(await answer.text(), 'done')
    assert.equal(order, ['ended', 'sent'])
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

EndOfTurn.run()
