import type { JournalEntry } from './request-journal.js'

/** The `code` of the Error a journal entry was answered with, when its body shows one. */
export const answeredCode = (entry: Pick<JournalEntry, 'status' | 'response'>): string | undefined => {
  if (entry.status === null || entry.status < 400 || entry.response.body === null) return undefined
  try {
    const code: unknown = (JSON.parse(entry.response.body) as { code?: unknown }).code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}
