import * as E from 'fp-ts/Either'
import type { Middleware } from 'koa'
import type { Authenticator, Client } from '../../src/domain/authenticator.js'
import { type Unauthorized, unauthorized } from '../../src/domain/errors.js'
import { sendFailure } from './error-response.js'

/**
 * The characters of an API key: RFC 6750's b64token, what can follow `Bearer ` unchanged. Keys are
 * checked against it when configured (src/config.ts), and credentials when read, so the two can
 * never drift apart.
 */
export const API_KEY_CHARACTERS = '[A-Za-z0-9\\-._~+/]+=*'

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

export interface AuthState {
  client?: Client
}

/**
 * Authenticates every request whose path `protects` says needs a key, before routing, so that without
 * a key nothing reveals which routes exist. A failure is answered here and goes no further.
 */
export const authenticate =
  (authenticator: Authenticator, protects: (path: string) => boolean): Middleware<AuthState> =>
  async (ctx, next) => {
    if (!protects(ctx.path)) {
      await next()
      return
    }
    const token = readBearerToken(ctx.get('Authorization') || undefined)
    const result = E.isLeft(token) ? token : await authenticator.authenticate(token.right)()
    if (E.isLeft(result)) return sendFailure(ctx, result.left)
    ctx.state.client = result.right
    await next()
  }
