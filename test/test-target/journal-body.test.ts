import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { escapedText, keptFromBytes, keptFromText } from '../../adapters/test-target/journal-body.js'
import { keyRedactor, redactNothing } from '../../adapters/http/key-redaction.js'

const KEY = 'abc+/DEF-0123456789=='
const bytes = (...parts: ReadonlyArray<string | ReadonlyArray<number>>): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))))

const Escaping = suite('escapedText: a body’s bytes as text')

Escaping('well-formed UTF-8 is shown as it is, U+FFFD sent as such included', () => {
  for (const text of ['', '{"name":"Zoë"}', 'Пушок 小虎 😀', '\uFFFD', 'a\\xFF']) assert.is(escapedText(Buffer.from(text)), text)
})

Escaping('each byte that is no part of a well-formed character is written \\xHH, in upper-case hex', () => {
  const cases: ReadonlyArray<readonly [Buffer, string]> = [
    [bytes([0xff]), '\\xFF'],
    [bytes('a', [0xc3], 'b'), 'a\\xC3b'],
    [bytes([0x80, 0xbf]), '\\x80\\xBF'],
    // An overlong form and a surrogate are no characters, byte by byte.
    [bytes([0xc0, 0x80]), '\\xC0\\x80'],
    [bytes([0xed, 0xa0, 0x80]), '\\xED\\xA0\\x80'],
    [bytes([0xe2, 0x82], 'x', [0xe2, 0x82, 0xac]), '\\xE2\\x82x€'],
    [bytes('é', [0xf0, 0x9f, 0x98], 'é'), 'é\\xF0\\x9F\\x98é'],
  ]
  for (const [input, shown] of cases) assert.is(escapedText(input), shown)
})

Escaping.run()

const Kept = suite('What an entry keeps of a body')

Kept('a whole text is redacted, then cut at the bound, never inside a character', () => {
  const redact = keyRedactor([KEY])
  assert.equal(keptFromText('', redact, 8), { body: null, bodyTruncated: false })
  assert.equal(keptFromText(`k=${KEY}`, redact, 12), { body: 'k=[redacted]', bodyTruncated: false })
  assert.equal(keptFromText('abcdefghij', redact, 8), { body: 'abcdefgh', bodyTruncated: true })
  assert.equal(keptFromText('abcdefgé', redact, 8), { body: 'abcdefg', bodyTruncated: true })
  assert.equal(keptFromText('abcdefg😀', redact, 8), { body: 'abcdefg', bodyTruncated: true })
  assert.equal(keptFromText('ab😀😀', redact, 2), { body: 'ab', bodyTruncated: true })
})

Kept('bytes that are all of a body are escaped and redacted, an incomplete last character shown as its bytes', () => {
  const redact = keyRedactor([KEY])
  assert.equal(keptFromBytes({ bytes: bytes(''), cut: false }, redact), { body: null, bodyTruncated: false })
  assert.equal(keptFromBytes({ bytes: bytes(`${KEY} `, [0xe2, 0x82]), cut: false }, redact), {
    body: '[redacted] \\xE2\\x82',
    bodyTruncated: false,
  })
})

Kept('bytes cut from a longer body end at a whole character and before the run of key characters the cut went through', () => {
  const redact = keyRedactor([KEY])
  assert.equal(keptFromBytes({ bytes: bytes(`{"a":"${KEY}","b":"${KEY.slice(0, 7)}`), cut: true }, redact), {
    body: '{"a":"[redacted]","b":"',
    bodyTruncated: true,
  })
  assert.equal(keptFromBytes({ bytes: bytes('{"a":"Rex', [0xe2, 0x82]), cut: true }, redactNothing), {
    body: '{"a":"Rex',
    bodyTruncated: true,
  })
  assert.equal(keptFromBytes({ bytes: bytes('%74est-key'), cut: true }, redactNothing), { body: null, bodyTruncated: true })
  // A JSON escape the cut went through is part of the run: a key's beginning before it shows nothing.
  assert.equal(keptFromBytes({ bytes: bytes('{"a":"abc\\u002d\\u00'), cut: true }, redactNothing), { body: '{"a":"', bodyTruncated: true })
  assert.equal(keptFromBytes({ bytes: bytes(''), cut: true }, redactNothing), { body: null, bodyTruncated: true })
})

Kept.run()
