import * as E from 'fp-ts/Either'
import { isBearerToken } from '../../adapters/http/auth.js'
import { codecOf, type SettingCodec } from './setting-read.js'

/** Where the API keys came from: the environment, or generated for this development run. */
export type ApiKeys =
  { readonly source: 'configured'; readonly keys: ReadonlyArray<string> } | { readonly source: 'generated'; readonly key: string }

const MIN_KEY_LENGTH = 16

/**
 * PETSTORE_API_KEYS: the configured keys, or one generated for a development run (by `generateKey`),
 * refused when `production`.
 */
export const apiKeysCodec = (production: boolean, generateKey: () => string): SettingCodec<ApiKeys> =>
  codecOf('ApiKeys', (text: string | undefined = '') => {
    if (text.trim() === '') {
      return production
        ? E.left('must list at least one API key when NODE_ENV=production')
        : E.right({ source: 'generated', key: generateKey() })
    }
    const keys = text.split(',').map((key) => key.trim())
    // Name the position, never the key: configured keys appear nowhere, not even in errors.
    const problems = keys.flatMap((key, index) => {
      if (key.length < MIN_KEY_LENGTH) return [`key ${index + 1} is shorter than ${MIN_KEY_LENGTH} characters`]
      if (!isBearerToken(key)) return [`key ${index + 1} has characters a Bearer token cannot carry`]
      return []
    })
    return problems.length > 0 ? E.left(`is invalid: ${problems.join('; ')}`) : E.right({ source: 'configured', keys })
  })
