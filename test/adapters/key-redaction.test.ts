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

Redaction.run()
