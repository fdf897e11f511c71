import type { KeptBody } from './journal-body.js'

/**
 * The `code` of the Error an answer of `status` carried, when its body (as the journal shows it)
 * shows one: the body is asked for only when the status is an error's.
 */
export const answeredCode = (status: number | null, shown: () => Pick<KeptBody, 'body'>): string | undefined => {
  if (status === null || status < 400) return undefined
  const { body } = shown()
  if (body === null) return undefined
  try {
    const code: unknown = (JSON.parse(body) as { code?: unknown }).code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}
