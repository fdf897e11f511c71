import type * as TE from 'fp-ts/TaskEither'
import type { Unauthorized } from './errors.js'

/** Who is calling, as far as logs and limits need to know; neither field reveals the key. */
export interface Client {
  /** A short id for logs. */
  readonly keyId: string
  /** A collision-free id that scopes per-client state (idempotency records, rate limits). */
  readonly scope: string
}

/**
 * The authentication port: given the API key a client presented, say who it is or refuse it with
 * Unauthorized('invalid'). Asynchronous so that a key service or database can stand behind it.
 */
export interface Authenticator {
  readonly authenticate: (apiKey: string) => TE.TaskEither<Unauthorized, Client>
}
