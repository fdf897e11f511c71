import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { echoed, MAX_ECHOED_CHARS } from '../../adapters/http/error-response.js'
import { keyRedactor } from '../../adapters/http/key-redaction.js'

const Redaction = suite('keyRedactor')

const KEY = 'abc+/DEF-0123456789=='

/** A character percent-encoded, in upper or lower case. */
const percent = (character: string, lower = false): string => {
  const hex = character.charCodeAt(0).toString(16).padStart(2, '0')
  return `%${lower ? hex : hex.toUpperCase()}`
}

/** A character as a JSON \u escape, in upper or lower case. */
const unicode = (character: string, lower = false): string => {
  const hex = character.charCodeAt(0).toString(16).padStart(4, '0')
  return `\\u${lower ? hex : hex.toUpperCase()}`
}

Redaction('replaces a key written plainly or with any of its characters percent-encoded, in either case', () => {
  const redact = keyRedactor([KEY])
  for (const spelled of [KEY, 'abc%2B%2FDEF-0123456789%3D%3D', 'abc%2b%2fDEF-0123456789==', '%61%62%63%2b/%44%45%46-0123456789%3d=']) {
    assert.is(redact(`key=${spelled}; next`), 'key=[redacted]; next', spelled)
  }
})

Redaction(
  'replaces a key JSON-escaped as a JSON body may carry it: \\/, \\u002d, any \\uXXXX in either case, mixed with the others',
  () => {
    const redact = keyRedactor([KEY])
    for (const spelled of [
      'abc+\\/DEF-0123456789==',
      'abc+/DEF\\u002d0123456789==',
      'abc+/DEF\\u002D0123456789==',
      [...KEY].map((character) => unicode(character)).join(''),
      [...KEY]
        .map((character, at) => (at % 3 === 0 ? unicode(character, true) : at % 3 === 1 ? percent(character, true) : character))
        .join(''),
    ]) {
      assert.is(redact(`{"name":"${spelled}"}`), '{"name":"[redacted]"}', spelled)
    }
  },
)

Redaction('replaces any run of 8 or more characters of a key, wherever it starts; leaves 7, and other text', () => {
  const redact = keyRedactor([KEY])
  for (const [text, shown] of [
    ['abc+/DEF', '[redacted]'],
    [`x${KEY.slice(5, 13)}y`, 'x[redacted]y'],
    ['abc+/DEF-012345678==', '[redacted]=='],
    [`${KEY.toLowerCase()}`, 'abc+/def[redacted]'],
    [`p=${[...KEY.slice(9, 17)].map((character) => percent(character)).join('')}&q`, 'p=[redacted]&q'],
    ['abc+/DE', 'abc+/DE'],
    ['abc+/DE abc+/DE', 'abc+/DE abc+/DE'],
    ['', ''],
    ['a text with no key', 'a text with no key'],
  ] as const) {
    assert.is(redact(text), shown, text)
  }
  assert.is(keyRedactor([])(KEY), KEY)
})

Redaction('replaces a run of 8 that starts at any place of a key, amid text that holds none', () => {
  const redact = keyRedactor([KEY, 'a-second-key-of-33-characters-xyz'])
  for (const key of [KEY, 'a-second-key-of-33-characters-xyz']) {
    for (let at = 0; at + 8 <= key.length; at += 1) {
      const run = key.slice(at, at + 8)
      assert.is(redact(`{"name":"pet ${run} of 20"}`), '{"name":"pet [redacted] of 20"}', run)
    }
  }
})

Redaction('replaces keys that hold or touch each other whole, whatever order they are configured in', () => {
  assert.is(keyRedactor(['0123456789abcdef', `x${KEY}0123456789abcdef`])(`x${KEY}0123456789abcdef`), '[redacted]')
  assert.is(keyRedactor(['0123456789abcdef', 'zz0123456789abcdef'])('zz0123456789abcdef 0123456789abcdef'), '[redacted] [redacted]')
})

Redaction('a key cut by a message that repeats a name shows none of its runs of 8 once redacted', () => {
  const redact = keyRedactor([KEY])
  for (const kept of [8, 12, KEY.length - 1]) {
    const cut = echoed(`${'x'.repeat(MAX_ECHOED_CHARS - kept)}${KEY}`)
    assert.is(redact(cut), `${'x'.repeat(MAX_ECHOED_CHARS - kept)}[redacted]…`, String(kept))
  }
  // Seven characters are no run of 8: they tell too little of a key to hide.
  assert.is(redact(echoed(`${'x'.repeat(MAX_ECHOED_CHARS - 7)}${KEY}`)), `${'x'.repeat(MAX_ECHOED_CHARS - 7)}abc+/DE…`)
})

const FORM = { prefix: 'made_', length: 'made_'.length + 8 }

Redaction('replaces any text of a key form, written plainly, percent-encoded or JSON-escaped, whether or not it was listed', () => {
  const redact = keyRedactor([KEY], [FORM])
  for (const spelled of ['made_Ab-_09xZ', 'made%5FAb%2D_09xZ', '%6d%61%64%65_%41b-%5f09xZ', 'made\\u005fAb\\u002d_09xZ']) {
    assert.is(redact(`key=${spelled}; next`), 'key=[redacted]; next', spelled)
  }
  assert.is(redact(`${KEY} made_Ab-_09xZ`), '[redacted] [redacted]')
  assert.is(keyRedactor([], [FORM])('made_Ab-_09xZ'), '[redacted]')
})

Redaction('replaces the beginning of a key form that a cut went through, even inside an escape', () => {
  const redact = keyRedactor([], [FORM])
  for (const [text, shown] of [
    ['/v1/made_Ab…', '/v1/[redacted]…'],
    ['/v1/made_Ab-_09x…', '/v1/[redacted]…'],
    ['/v1/made_Ab%2…', '/v1/[redacted]…'],
    ['/v1/made_Ab\\u00…', '/v1/[redacted]…'],
    // Its prefix alone tells nothing of a key; nor does a shorter text of the form that was not cut.
    ['/v1/made_…', '/v1/made_…'],
    ['made_Ab-_09x and more', 'made_Ab-_09x and more'],
  ] as const) {
    assert.is(redact(text), shown, text)
  }
})

Redaction('leaves a text that only resembles a key form: too short, another prefix, a character outside base64url', () => {
  const redact = keyRedactor([], [FORM])
  for (const text of ['made_Ab-_09x', 'MADE_Ab-_09xZ', 'made-Ab-_09xZ', 'made_Ab+/09xZ', 'made_Ab-_09x%2B']) assert.is(redact(text), text)
})

// No timed assertion: each place of a text starts one run, read at most 8 characters deep.
Redaction('reads a text of any length, full of near misses, in linear time', () => {
  const redact = keyRedactor([KEY], [FORM])
  const misses = `${KEY.slice(0, 7)}%2${'made_Ab-_09x'}\\u00`.repeat(50_000)
  assert.is(redact(misses), misses)
})

Redaction.run()
