import { createHash, timingSafeEqual } from 'node:crypto'
import * as TE from 'fp-ts/TaskEither'
import type { Authenticator, Client } from '../../src/domain/authenticator.js'
import { unauthorized } from '../../src/domain/errors.js'

const sha256 = (key: string): string => createHash('sha256').update(key).digest('hex')

/** A short, non-reversible id of a key for logs: the first 8 hex digits of its SHA-256. */
export const keyIdOf = (key: string): string => sha256(key).slice(0, 8)

interface ConfiguredKey {
  readonly bytes: Buffer
  /** Where a presented key is copied to be compared: one per key, reused, as comparing is synchronous. */
  readonly candidate: Buffer
  readonly client: Client
}

/**
 * Compares in time that depends on the configured key's length only: the presented key is written
 * into a buffer of the key's length (zeroed first) before timingSafeEqual, so neither content nor
 * length of the presented key shortens the comparison. No per-request hashing or allocation: the key
 * is encoded straight into the reused buffer, and its full UTF-8 length is counted, not copied.
 */
const matches = (presented: string, presentedBytes: number, { bytes, candidate }: ConfiguredKey): boolean => {
  candidate.fill(0)
  candidate.write(presented, 'utf8')
  const sameBytes = timingSafeEqual(candidate, bytes)
  return sameBytes && presentedBytes === bytes.length
}

/**
 * The Authenticator port over a fixed list of keys (rotation: configure old and new together).
 * Every configured key is compared, without an early exit, so the time does not reveal which matched.
 */
export const staticKeyAuthenticator = (keys: ReadonlyArray<string>): Authenticator => {
  const configured: ReadonlyArray<ConfiguredKey> = keys.map((key) => ({
    bytes: Buffer.from(key, 'utf8'),
    candidate: Buffer.alloc(Buffer.byteLength(key, 'utf8')),
    client: { keyId: keyIdOf(key), scope: sha256(key) },
  }))
  return {
    authenticate: (apiKey) => {
      const presentedBytes = Buffer.byteLength(apiKey, 'utf8')
      let client: Client | undefined
      for (const key of configured) {
        if (matches(apiKey, presentedBytes, key)) client = key.client
      }
      return client === undefined ? TE.left(unauthorized('invalid')) : TE.right(client)
    },
  }
}
