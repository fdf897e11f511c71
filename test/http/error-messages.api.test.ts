import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { MAX_ECHOED_CHARS, MAX_NAMED_PROBLEMS } from '../../adapters/http/error-response.js'
import { apiSuite, assertError } from '../support/api-suite.js'

/** What the contract allows an Error's message at most, whatever the input (docs/openapi.yaml, Error). */
const MAX_MESSAGE_CHARS = 1024

const Messages = apiSuite('Error messages: bounded whatever the input', () => ({
  sandboxes: memoryStore().dataSets,
}))

Messages('An error message names at most five problems and says how many more there were', async ({ api }) => {
  const query = Array.from({ length: 1500 }, (_, index) => `p${index}=1`).join('&')
  const message = assertError(await api.request('GET', `/v1/pets?${query}`), 400, 'invalid_parameter')
  assert.is(message.split('is not a parameter').length - 1, MAX_NAMED_PROBLEMS)
  assert.ok(message.endsWith(`; and ${1500 - MAX_NAMED_PROBLEMS} more problems`), message)
  assert.ok(message.length <= MAX_MESSAGE_CHARS, `${message.length} characters`)
})

Messages('A fault script of 100,000 unknown fields is refused with a message of bounded size', async ({ api }) => {
  const rule = Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`f${index}`, 1]))
  const response = await api.request('PUT', '/v1/sandbox/faults', { body: Array.from({ length: 100 }, () => rule) })
  const message = assertError(response, 400, 'invalid_body')
  assert.ok(message.startsWith('invalid fault script: [0].f0: is not a field of a rule'), message)
  assert.ok(message.endsWith(`; and ${100 * 1000 - MAX_NAMED_PROBLEMS} more problems`), message)
  assert.ok(response.text.length <= MAX_MESSAGE_CHARS + 64, `${response.text.length} bytes`)
})

Messages('A message repeats at most 100 characters of a name the client chose, marked as cut', async ({ api }) => {
  const name = 'x'.repeat(5000)
  const parameter = assertError(await api.request('GET', `/v1/pets?${name}=1`), 400, 'invalid_parameter')
  assert.ok(parameter.startsWith(`${'x'.repeat(MAX_ECHOED_CHARS)}…: is not a parameter`), parameter)
  const field = assertError(await api.request('PUT', '/v1/sandbox/faults', { body: [{ [name]: 1 }] }), 400, 'invalid_body')
  assert.ok(field.includes(`[0].${'x'.repeat(MAX_ECHOED_CHARS)}…: is not a field`), field)
  const route = assertError(await api.request('GET', `/v1/${name}`), 404, 'route_not_found')
  assert.is(route, `no route for GET /v1/${'x'.repeat(MAX_ECHOED_CHARS - 4)}…`)
  // A cut never splits a character written as two UTF-16 units.
  const dogs = `a${'🐕'.repeat(60)}`
  const cut = assertError(await api.request('GET', `/v1/pets?${encodeURIComponent(dogs)}=1`), 400, 'invalid_parameter')
  assert.ok(cut.startsWith(`a${'🐕'.repeat(49)}…: is not a parameter`), cut)
})

Messages.run()
