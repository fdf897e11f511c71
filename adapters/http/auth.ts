import * as E from 'fp-ts/Either'
import type { Middleware } from 'koa'
import type { Authenticator, Client } from '../../src/domain/authenticator.js'
import { type Unauthorized, unauthorized } from '../../src/domain/errors.js'
import { sendFailure } from './error-response.js'
import { duplicateAuthorization } from './http-failures.js'

/**
 * The characters of an API key: RFC 6750's b64token, what can follow `Bearer ` unchanged. Keys are
 * checked against it when configured (isBearerToken), and credentials when read, so the two can
 * never drift apart.
 */
export const API_KEY_CHARACTERS = '[A-Za-z0-9\\-._~+/]+=*'

const TOKEN = new RegExp(`^${API_KEY_CHARACTERS}$`)

/** Whether a key can be sent as it is after `Bearer `: the composition root refuses a configured key that cannot. */
export const isBearerToken = (key: string): boolean => TOKEN.test(key)

/**
 * `Bearer <token>`: the scheme is case-insensitive (RFC 9110 §11.1); the token has RFC 6750's
 * b64token syntax, so a configured key can always be sent as it is.
 */
const BEARER = new RegExp(`^bearer +(${API_KEY_CHARACTERS}) *$`, 'i')

/** Reads the API key out of an Authorization header value, without judging the key itself. */
export const readBearerToken = (header: string | undefined): E.Either<Unauthorized, string> => {
  if (header === undefined || header === '') return E.left(unauthorized('missing'))
  const match = BEARER.exec(header)
  return match?.[1] === undefined ? E.left(unauthorized('malformed')) : E.right(match[1])
}

/** Whether a raw header line's name is Authorization, in any case. */
export const isAuthorization = (name: string): boolean => name.length === 13 && name.toLowerCase() === 'authorization'

/**
 * The values of the request's Authorization header lines, in order. Node keeps only the first in
 * `headers.authorization`, so a second one would otherwise go unseen.
 */
export const authorizationValues = (rawHeaders: ReadonlyArray<string>): ReadonlyArray<string> => {
  const values: string[] = []
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (isAuthorization(rawHeaders[index] ?? '')) values.push(rawHeaders[index + 1] ?? '')
  }
  return values
}

export interface AuthState {
  client?: Client
}

/**
 * Authenticates every request whose path `protects` says needs a key, before routing, so that without
 * a key nothing reveals which routes exist. A failure is answered here and goes no further. Two
 * Authorization headers are refused (400 invalid_request) rather than the first silently winning.
 */
export const authenticate =
  (authenticator: Authenticator, protects: (path: string) => boolean): Middleware<AuthState> =>
  async (ctx, next) => {
    if (!protects(ctx.path)) {
      await next()
      return
    }
    if (authorizationValues(ctx.req.rawHeaders).length > 1) return sendFailure(ctx, duplicateAuthorization)
    const token = readBearerToken(ctx.req.headers.authorization || undefined)
    const result = E.isLeft(token) ? token : await authenticator.authenticate(token.right)()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    ctx.state.client = result.right
    await next()
  }

/**
 * Knows the keys either authenticator knows: `first` is asked, and `second` only when `first` refuses
 * the key; `second`'s refusal then stands (an extension's keys beside the configured ones).
 */
export const eitherAuthenticator = (first: Authenticator, second: Authenticator): Authenticator => ({
  // Asked on every request: a plain task (docs/adr/0106-use-cases-are-fp-ts-pipelines-whose-per-call-steps-are-plain.md).
  authenticate: (apiKey) => () =>
    first
      .authenticate(apiKey)()
      .then((known) => (E.isRight(known) ? known : second.authenticate(apiKey)())),
})
