import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { MAX_ECHOED_CHARS } from '../../adapters/http/error-response.js'
import { keyRedactor } from '../../adapters/http/key-redaction.js'
import { staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'
import { MADE_KEY_FORM } from '../../adapters/test-target/made-keys.js'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { assertError } from '../support/api-suite.js'
import { capturedLogger } from '../support/captured-logger.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

/** A configured key with every character a key may hold that a JSON body or a URL escapes: `/`, `+`, `-`, `=`. */
const SLASHED_KEY = 'other/key+with-every-sign0123=='

/** Each run of 8 characters of `key` that `text` shows as sent; a made key's prefix alone is no secret. */
const runsShown = (text: string, key: string): ReadonlyArray<string> =>
  Array.from({ length: key.length - 7 }, (_, at) => key.slice(at, at + 8)).filter(
    (run) => run !== MADE_KEY_FORM.prefix && text.includes(run),
  )

const Redaction = suite<{ api: RunningApi; log: ReturnType<typeof capturedLogger> }>('No run of 8 characters of an API key is shown', {
  api: undefined as unknown as RunningApi,
  log: undefined as unknown as ReturnType<typeof capturedLogger>,
})

Redaction.before.each(async (context) => {
  context.log = capturedLogger()
  context.api = await startApi({
    logger: context.log.logger,
    sandboxes: memoryStore().dataSets,
    authenticator: staticKeyAuthenticator([TEST_KEY, SLASHED_KEY]),
    redact: keyRedactor([TEST_KEY, SLASHED_KEY], [MADE_KEY_FORM]),
  })
})

Redaction.after.each(async ({ api }) => {
  await api.close()
})

const journalText = async (api: RunningApi, key: string = TEST_KEY): Promise<string> => {
  const journal = await api.request('GET', '/v1/sandbox/requests?limit=100', { key })
  assert.is(journal.status, 200)
  return journal.text
}

Redaction(
  'a path padded so that a message cuts it inside a key: the message, the journal and the log show no run of it',
  async ({ api, log }) => {
    const made = (await api.request('POST', '/v1/sandboxes')).body as { key: string }
    // The message repeats MAX_ECHOED_CHARS characters of the path: all of the key but its last, then all but 9.
    for (const [key, kept] of [
      [SLASHED_KEY, SLASHED_KEY.length - 1],
      [made.key, made.key.length - 9],
    ] as const) {
      const path = `/v1/${'p'.repeat(MAX_ECHOED_CHARS - 4 - kept)}${key}`
      const message = assertError(await api.request('GET', path), 404, 'route_not_found')
      assert.is(message, `no route for GET /v1/${'p'.repeat(MAX_ECHOED_CHARS - 4 - kept)}[redacted]…`)
      assert.equal(runsShown(await journalText(api), key), [])
      assert.equal(runsShown(log.raw(), key), [])
    }
  },
)

Redaction(
  'a key in a JSON body, escaped as JSON may escape it (\\/, \\u002d, any \\uXXXX) or percent-encoded, is redacted in the journal',
  async ({ api }) => {
    const unicode = (character: string): string => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`
    const spellings = [
      SLASHED_KEY.replace('/', '\\/'),
      SLASHED_KEY.replace('-', '\\u002d'),
      SLASHED_KEY.replace('-', '\\u002D').replace('/', '\\/'),
      [...SLASHED_KEY].map(unicode).join(''),
      SLASHED_KEY.replace('/', '%2F').replace('+', '%2b'),
    ]
    for (const spelled of spellings) {
      const body = `{"name":"${spelled}","categoryId":1}`
      assert.is((await api.request('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json' } })).status, 201)
      const [entry] = JSON.parse(await journalText(api)) as ReadonlyArray<{ request: { body: string }; response: { body: string } }>
      assert.is(entry?.request.body, '{"name":"[redacted]","categoryId":1}', spelled)
      assert.match(entry?.response.body ?? '', '"name":"[redacted]"')
    }
    assert.equal(runsShown(await journalText(api), SLASHED_KEY), [])
  },
)

Redaction('a body that is not JSON around a key: the message quotes none of the body, on the wire or in the journal', async ({ api }) => {
  const made = (await api.request('POST', '/v1/sandboxes')).body as { key: string }
  for (const key of [SLASHED_KEY, made.key]) {
    const refused = await api.request('POST', '/v1/pets', { body: `{"name": ${key}}`, headers: { 'content-type': 'application/json' } })
    const message = assertError(refused, 400, 'invalid_json')
    assert.match(message, /^the body is not valid JSON: Unexpected token/)
    assert.equal(runsShown(message, key), [])
    assert.equal(runsShown(await journalText(api), key), [])
  }
})

Redaction.run()
