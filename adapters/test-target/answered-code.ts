import type { KeptBody } from './journal-body.js'

/** The `code` of the Error an answer of `status` carried, when its body (as the journal keeps it) shows one. */
export const answeredCode = (status: number | null, { body }: Pick<KeptBody, 'body'>): string | undefined => {
  if (status === null || status < 400 || body === null) return undefined
  try {
    const code: unknown = (JSON.parse(body) as { code?: unknown }).code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}
