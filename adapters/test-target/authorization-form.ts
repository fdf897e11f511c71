import * as E from 'fp-ts/Either'
import type { Authenticator, Client } from '../../src/domain/authenticator.js'
import { API_KEY_CHARACTERS } from '../http/auth.js'
import { REDACTED } from '../http/key-redaction.js'

/** Names of authentication schemes: shown as sent, since they are what a client gets wrong. */
const SCHEMES = 'bearer|basic|token|digest|apikey'
const SCHEME = new RegExp(`^(?:${SCHEMES})$`, 'i')

/**
 * A word (a run of characters other than white space, `"` and `,`, whole) that is not a scheme's
 * name: one pattern replaced by a string, which every request of a sandbox pays for, rather than a
 * function called for each word.
 */
const NOT_A_SCHEME = new RegExp(`(?<![^\\s",])(?!(?:${SCHEMES})(?![^\\s",]))[^\\s",]+`, 'gi')

/**
 * A credential as nearly every request sends it, `Bearer`, a space and one word that names no
 * scheme: its form, the same as the pattern's, found with two plain tests, one string for all.
 */
const BEARER_AND_WORD = /^Bearer [^\s",]+$/
const BEARER_AND_SCHEME = new RegExp(`^Bearer (?:${SCHEMES})$`, 'i')
const BEARER_FORM = `Bearer ${REDACTED}`

/**
 * What a journal entry shows of Authorization values (several lines joined with `, `): their form,
 * every word other than a scheme's name shown as `[redacted]`, so that no credential is ever kept,
 * right or wrong, while `[redacted]` (no `Bearer`) or `Bearer Bearer [redacted]` still say what went
 * wrong.
 */
export const authorizationForm = (values: ReadonlyArray<string>): string => {
  const [only] = values
  if (values.length === 1 && only !== undefined && BEARER_AND_WORD.test(only) && !BEARER_AND_SCHEME.test(only)) return BEARER_FORM
  return values.map((value) => value.replace(NOT_A_SCHEME, REDACTED)).join(', ')
}

/** How many words of refused Authorization values are tried as keys: a bound on the work a bad header costs. */
const MAX_CANDIDATES = 4

/**
 * The client whose key appears among the words of Authorization values that authentication refused
 * for their form (no `Bearer`, `Bearer` twice, two headers...), or undefined. Each word is checked
 * as authentication checks a key (in constant time), never compared any other way.
 */
export const keyHolderIn = async (values: ReadonlyArray<string>, authenticator: Authenticator): Promise<Client | undefined> => {
  const words = values.flatMap((value) => value.match(new RegExp(API_KEY_CHARACTERS, 'g')) ?? [])
  for (const word of words.filter((each) => !SCHEME.test(each)).slice(0, MAX_CANDIDATES)) {
    const client = await authenticator.authenticate(word)()
    if (E.isRight(client)) return client.right
  }
  return undefined
}
