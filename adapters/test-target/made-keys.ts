import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import * as E from 'fp-ts/Either'
import type { Client } from '../../src/domain/authenticator.js'
import { DEFAULT_SANDBOX_IDLE_SECONDS, DEFAULT_SANDBOX_MAX } from '../../src/store/sandbox-budget.js'
import { keyIdOf } from '../auth/static-key-authenticator.js'

/**
 * What every made key looks like: this prefix, then 43 base64url characters (32 random bytes).
 * Redaction finds made keys by this form (src/main/service.ts), so none needs to be listed.
 */
export const MADE_KEY_FORM = { prefix: 'sandbox_', length: 'sandbox_'.length + 43 } as const
const RANDOM_BYTES = 32

/**
 * Made keys' scopes start with this, and configured keys' never do (theirs are bare SHA-256 hex): so a
 * scope of a made key that has ended is known as one without remembering it.
 */
const MADE_SCOPE = 'made:'

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest()

/** No key was made: `max` made keys are open; the least recently used one expires in `retryAfterSeconds` unless it is used. */
interface MadeKeysFull {
  readonly max: number
  readonly retryAfterSeconds: number
}

/** The keys of the sandboxes made at run time. */
export interface MadeKeys {
  /** How long a made key may go unused before it expires. */
  readonly idleSeconds: number
  /** A new key and who it is, unless `max` made keys are open (expired ones count until `sweep` ends them). */
  readonly make: () => E.Either<MadeKeysFull, { readonly key: string; readonly client: Client }>
  /** Who an open made key is, or undefined for any other key; the key's idle time starts again. */
  readonly find: (apiKey: string) => Client | undefined
  /** Ends the made key of this scope at once; false when no made key of this scope is open. */
  readonly end: (scope: string) => boolean
  /** Ends every made key idle for `idleSeconds` or longer, and answers their scopes. */
  readonly sweep: () => ReadonlyArray<string>
  /** Whether a scope is a made key's, open or ended. */
  readonly isMade: (scope: string) => boolean
  /** Whether a scope may still be used: a configured key's always, a made key's until it ends. */
  readonly isOpen: (scope: string) => boolean
  /** How many made keys are open: what `max` bounds. */
  readonly size: () => number
}

interface MadeKey {
  readonly digest: Buffer
  readonly client: Client
  readonly lastUsedMs: number
}

export interface MadeKeysOptions {
  readonly max?: number
  readonly idleSeconds?: number
  /** Milliseconds on a clock that never goes back; a test moves it instead of waiting. */
  readonly now?: () => number
}

/**
 * The keys of sandboxes made at run time (POST /v1/sandboxes), in memory: at most `max` open at once,
 * each ending when asked or after `idleSeconds` without a request. Expiry needs no timer: a key found
 * expired is refused, and `sweep` ends every expired key, oldest first, in time proportional to how
 * many expired. The map is kept in order of last use (a used key moves to its end), so the expired
 * keys are at its start.
 *
 * Only the SHA-256 of each key is kept. A presented key is hashed and looked up by that hash, which
 * reveals nothing of the key, then compared with timingSafeEqual like every key comparison here.
 */
export const madeKeys = ({
  max = DEFAULT_SANDBOX_MAX,
  idleSeconds = DEFAULT_SANDBOX_IDLE_SECONDS,
  now = () => performance.now(),
}: MadeKeysOptions = {}): MadeKeys => {
  const idleMs = idleSeconds * 1000
  const open = new Map<string, MadeKey>()
  const expired = (key: MadeKey, time: number): boolean => time - key.lastUsedMs >= idleMs
  const isMade = (scope: string): boolean => scope.startsWith(MADE_SCOPE)

  return {
    idleSeconds,
    make: () => {
      const leastRecentlyUsed = open.values().next().value
      if (open.size >= max && leastRecentlyUsed !== undefined) {
        const waitMs = leastRecentlyUsed.lastUsedMs + idleMs - now()
        return E.left({ max, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) })
      }
      const key = `${MADE_KEY_FORM.prefix}${randomBytes(RANDOM_BYTES).toString('base64url')}`
      const digest = sha256(key)
      const client = { keyId: keyIdOf(key), scope: `${MADE_SCOPE}${digest.toString('hex')}` }
      open.set(client.scope, { digest, client, lastUsedMs: now() })
      return E.right({ key, client })
    },
    find: (apiKey) => {
      if (!apiKey.startsWith(MADE_KEY_FORM.prefix)) return undefined
      const digest = sha256(apiKey)
      const scope = `${MADE_SCOPE}${digest.toString('hex')}`
      const made = open.get(scope)
      const time = now()
      if (made === undefined || !timingSafeEqual(made.digest, digest) || expired(made, time)) return undefined
      open.delete(scope)
      open.set(scope, { ...made, lastUsedMs: time })
      return made.client
    },
    end: (scope) => open.delete(scope),
    sweep: () => {
      const time = now()
      const ended: string[] = []
      for (const [scope, made] of open) {
        if (!expired(made, time)) break
        open.delete(scope)
        ended.push(scope)
      }
      return ended
    },
    isMade,
    isOpen: (scope) => !isMade(scope) || open.has(scope),
    size: () => open.size,
  }
}
