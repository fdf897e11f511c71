import { createHmac } from 'node:crypto'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cursorCodec } from '../../adapters/http/cursor.js'

const Cursor = suite('cursorCodec')

Cursor('reads back the position it wrote', () => {
  const cursors = cursorCodec('secret-for-tests')
  for (const id of [1, 20, 123456, Number.MAX_SAFE_INTEGER]) assert.is(cursors.decode(cursors.encode(id)), id)
})

Cursor('rejects a tampered position, a tampered MAC and garbage', () => {
  const cursors = cursorCodec('secret-for-tests')
  const cursor = cursors.encode(40)
  const [body = '', mac = ''] = cursor.split('.')
  const otherBody = (parseInt(body, 36) + 1).toString(36)
  const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`
  for (const bad of [`${otherBody}.${mac}`, `${body}.${flipped}`, '', 'abc', '40', `${body}.`, `${cursor}x`, '0.' + mac]) {
    assert.is(cursors.decode(bad), undefined, bad)
  }
})

Cursor('rejects a cursor written under another secret', () => {
  assert.is(cursorCodec('secret-b').decode(cursorCodec('secret-a').encode(7)), undefined)
})

Cursor('shares cursors between instances configured with the same secret', () => {
  assert.is(cursorCodec('shared').decode(cursorCodec('shared').encode(7)), 7)
})

Cursor('writes and reads the position, then the first 12 bytes of its HMAC-SHA256 in base64url, whatever the length of the secret', () => {
  // The format of docs/adr/0201: a cursor written by any release under the same secret stays valid.
  for (const secret of [
    's',
    'x'.repeat(64),
    'a longer secret than one block of SHA-256, which is hashed first: '.repeat(3),
    'clé'.repeat(9),
  ]) {
    const cursors = cursorCodec(secret)
    for (const id of [1, 20, 35, 36, 123456, Number.MAX_SAFE_INTEGER]) {
      const body = id.toString(36)
      const written = `${body}.${createHmac('sha256', secret).update(body).digest().subarray(0, 12).toString('base64url')}`
      assert.is(cursors.encode(id), written, `${secret.length}: ${id}`)
      assert.is(cursors.decode(written), id)
    }
  }
})

Cursor.run()
