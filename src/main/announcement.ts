import type { Config } from './config.js'

/**
 * What the process writes on stderr once it listens, outside the JSON log on stdout and whatever
 * LOG_LEVEL says, in one write. First one JSON line for the program that started it (a test harness,
 * in any language) to read where it listens: `{"event":"listening","url":…}`, with `key` when one
 * was generated; a stable interface (docs/guides/client-developers.md#drive-it-from-another-language).
 * Then, for a generated key, a banner for people with a curl line to paste. A generated key is the
 * one secret ever printed: here, at start-up, never in the log.
 */
export const listeningAnnouncement = (url: string, apiKeys: Config['apiKeys']): string => {
  const key = apiKeys.source === 'generated' ? apiKeys.key : undefined
  const line = JSON.stringify({ event: 'listening', url, ...(key === undefined ? {} : { key }) })
  if (key === undefined) return `${line}\n`
  return [
    line,
    '',
    '  No PETSTORE_API_KEYS configured: generated a development API key for this run.',
    `  API key: ${key}`,
    `  Try:     curl -H 'Authorization: Bearer ${key}' ${url}/v1/pets`,
    '',
    '',
  ].join('\n')
}
