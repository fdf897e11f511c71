import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { keyRedactor } from '../../adapters/http/key-redaction.js'

const Redaction = suite('keyRedactor')

const KEY = 'abc+/DEF-0123456789=='

Redaction('replaces a key written plainly or with any of its characters percent-encoded, in either case', () => {
  const redact = keyRedactor([KEY])
  for (const spelled of [KEY, 'abc%2B%2FDEF-0123456789%3D%3D', 'abc%2b%2fDEF-0123456789==', '%61%62%63%2b/%44%45%46-0123456789%3d=']) {
    assert.is(redact(`key=${spelled}; next`), 'key=[redacted]; next', spelled)
  }
})

Redaction('leaves a text without a key, or with a key of other case, as it is', () => {
  const redact = keyRedactor([KEY])
  for (const text of ['', 'abc+/DEF-012345678==', KEY.toLowerCase(), 'abc%2B%2FDEF-012345678']) assert.is(redact(text), text)
  assert.is(keyRedactor([])(KEY), KEY)
})

Redaction('replaces a key that holds another key whole, whatever order they are configured in', () => {
  assert.is(keyRedactor(['0123456789abcdef', `x${KEY}0123456789abcdef`])(`x${KEY}0123456789abcdef`), '[redacted]')
  assert.is(keyRedactor(['0123456789abcdef', 'zz0123456789abcdef'])('zz0123456789abcdef 0123456789abcdef'), '[redacted] [redacted]')
})

const FORM = { prefix: 'made_', length: 'made_'.length + 8 }

Redaction('replaces any text of a key form, written plainly or percent-encoded, whether or not it was listed', () => {
  const redact = keyRedactor([KEY], [FORM])
  for (const spelled of ['made_Ab-_09xZ', 'made%5FAb%2D_09xZ', '%6d%61%64%65_%41b-%5f09xZ']) {
    assert.is(redact(`key=${spelled}; next`), 'key=[redacted]; next', spelled)
  }
  assert.is(redact(`${KEY} made_Ab-_09xZ`), '[redacted] [redacted]')
  assert.is(keyRedactor([], [FORM])('made_Ab-_09xZ'), '[redacted]')
})

Redaction('leaves a text that only resembles a key form: too short, another prefix, a character outside base64url', () => {
  const redact = keyRedactor([], [FORM])
  for (const text of ['made_Ab-_09x', 'MADE_Ab-_09xZ', 'made-Ab-_09xZ', 'made_Ab+/09xZ', 'made_Ab-_09x%2B']) assert.is(redact(text), text)
})

Redaction.run()
