import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
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
const CURSOR = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{16})$/

export const cursorCodec = (secret: string | Buffer = randomBytes(32)): CursorCodec => {
  const macOf = (body: string): Buffer => createHmac('sha256', secret).update(body).digest().subarray(0, MAC_BYTES)
  return {
    encode: (after) => {
      const body = after.toString(36)
      return `${body}.${macOf(body).toString('base64url')}`
    },
    decode: (cursor) => {
      const match = CURSOR.exec(cursor)
      if (match?.[1] === undefined || match[2] === undefined) return undefined
      const mac = Buffer.from(match[2], 'base64url')
      if (mac.length !== MAC_BYTES || !timingSafeEqual(mac, macOf(match[1]))) return undefined
      const id = parseInt(match[1], 36)
      return Number.isSafeInteger(id) && id > 0 ? id : undefined
    },
  }
}
