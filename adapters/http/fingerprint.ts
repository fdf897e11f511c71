import { createHash } from 'node:crypto'

/** JSON with object keys sorted at every depth: equal for values that are equal as JSON. */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** What an idempotency record remembers of a body: a hash, so that no body is stored twice. */
export const bodyFingerprint = (body: unknown): string => createHash('sha256').update(canonicalJson(body)).digest('base64url')

/** An Idempotency-Key is a Structured Field string ("..."); a bare token is accepted as well. */
export const idempotencyKeyOf = (header: string): string => (/^"[^"\\]*"$/.test(header) ? header.slice(1, -1) : header)
