import { hash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { PetId } from '../../src/domain/pet.js'

/**
 * Opaque page cursors: `<id in base 36>.<MAC>`, where the MAC is a truncated HMAC-SHA256 of the id
 * under a server secret. Clients cannot forge or edit one without the change being detected, and
 * nothing in a cursor promises its format. Instances behind one load balancer must share the secret
 * (PETSTORE_CURSOR_SECRET), or a cursor from one is refused by another.
 */
export interface CursorCodec {
  readonly encode: (after: PetId) => string
  readonly decode: (cursor: string) => PetId | undefined
}

const MAC_BYTES = 12
/** The MAC in base64url: 12 bytes are 16 characters, with no padding bits. */
const MAC_CHARACTERS = (MAC_BYTES / 3) * 4
/** The longest position: Number.MAX_SAFE_INTEGER in base 36. */
const MAX_BODY_LENGTH = 11
const CURSOR = new RegExp(`^([0-9a-z]{1,${MAX_BODY_LENGTH}})\\.([A-Za-z0-9_-]{${MAC_CHARACTERS}})$`)

/** SHA-256's block and digest sizes, in bytes. */
const BLOCK = 64
const DIGEST = 32

/**
 * HMAC-SHA256 (RFC 2104) under `secret` of ASCII texts of at most MAX_BODY_LENGTH characters, in
 * base64url: H((K ^ opad) || H((K ^ ipad) || text)), from two one-shot `crypto.hash` calls over
 * buffers that hold the padded key already. The same bytes as `createHmac('sha256', secret)`, which
 * makes an Hmac object per call, and `crypto.hash` answering Buffers, which makes a Buffer over
 * memory of OpenSSL's: docs/performance.md has what each costs. The buffers are reused; a call is
 * synchronous, so no two calls share them.
 */
const hmacSha256 = (secret: string | Buffer): ((text: string) => string) => {
  const given = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret
  // A key longer than a block is hashed first; a shorter one is padded with zeros.
  const key = given.length > BLOCK ? hash('sha256', given, 'buffer') : given
  const inner = Buffer.alloc(BLOCK + MAX_BODY_LENGTH)
  const outer = Buffer.alloc(BLOCK + DIGEST)
  for (let index = 0; index < BLOCK; index += 1) {
    inner[index] = (key[index] ?? 0) ^ 0x36
    outer[index] = (key[index] ?? 0) ^ 0x5c
  }
  return (text) => {
    const length = inner.write(text, BLOCK, 'latin1')
    if (length !== text.length) throw new RangeError(`a cursor's position has at most ${MAX_BODY_LENGTH} characters`)
    // 'binary' (latin1) carries the digest's bytes unchanged, one character each.
    outer.write(hash('sha256', inner.subarray(0, BLOCK + length), 'binary'), BLOCK, 'latin1')
    return hash('sha256', outer, 'base64url')
  }
}

export const cursorCodec = (secret: string | Buffer = randomBytes(32)): CursorCodec => {
  const hmac = hmacSha256(secret)
  // The first MAC_BYTES bytes of the HMAC, as the first MAC_CHARACTERS characters of its base64url.
  const macOf = (body: string): string => hmac(body).slice(0, MAC_CHARACTERS)
  return {
    encode: (after) => {
      const body = after.toString(36)
      return `${body}.${macOf(body)}`
    },
    decode: (cursor) => {
      const match = CURSOR.exec(cursor)
      if (match?.[1] === undefined || match[2] === undefined) return undefined
      // Both are MAC_CHARACTERS characters of base64url, compared without an early exit.
      if (!timingSafeEqual(Buffer.from(match[2], 'latin1'), Buffer.from(macOf(match[1]), 'latin1'))) return undefined
      const id = parseInt(match[1], 36)
      return Number.isSafeInteger(id) && id > 0 ? id : undefined
    },
  }
}
