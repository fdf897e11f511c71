import { hash } from 'node:crypto'
import { NumberText } from '../../src/domain/integer-text.js'

/**
 * JSON with object keys sorted at every depth: equal for values that are equal as JSON. Built by
 * concatenation, with the keys in the default sort order (UTF-16 code units, as `<` compares):
 * a body's cost must stay close to the cost of parsing it, however many keys it has.
 */
const canonicalJson = (value: unknown): string => {
  // A literal JSON.parse would round is fingerprinted as the client wrote it.
  if (value instanceof NumberText) return value.text
  if (Array.isArray(value)) {
    let text = '['
    for (let index = 0; index < value.length; index += 1) text += `${index === 0 ? '' : ','}${canonicalJson(value[index])}`
    return `${text}]`
  }
  if (typeof value === 'object' && value !== null) {
    const fields = value as Record<string, unknown>
    const keys = Object.keys(fields).sort()
    let text = '{'
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] ?? ''
      text += `${index === 0 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(fields[key])}`
    }
    return `${text}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** What an idempotency record remembers of a body: a hash, so that no body is stored twice. */
export const bodyFingerprint = (body: unknown): string => hash('sha256', canonicalJson(body), 'base64url')

/** An Idempotency-Key is a Structured Field string ("..."); a bare token is accepted as well. */
export const idempotencyKeyOf = (header: string): string => (/^"[^"\\]*"$/.test(header) ? header.slice(1, -1) : header)
