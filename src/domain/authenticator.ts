import type * as TE from 'fp-ts/TaskEither'
import type { Unauthorized } from './errors.js'

/** Who is calling, as far as logs and limits need to know: a short, non-reversible id of the key. */
export interface Client {
  readonly keyId: string
}

/**
 * The authentication port: given the API key a client presented, say who it is or refuse it with
 * Unauthorized('rejected'). Asynchronous so that a key service or database can stand behind it.
 */
export interface Authenticator {
  readonly authenticate: (apiKey: string) => TE.TaskEither<Unauthorized, Client>
}
