/**
 * An independent statement of the rules, used as the oracle of the property tests: given what a
 * client sends, which status must come back. Written from the spec and docs/adr/, not from
 * the code under test.
 */

export const STATUSES = ['available', 'pending', 'sold'] as const
const MAX_NAME_CODE_POINTS = 200

const hasProtoKey = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return true
  return Object.values(value).some(hasProtoKey)
}

const isValidName = (name: unknown): boolean =>
  typeof name === 'string' && name.isWellFormed() && [...name].length >= 1 && [...name].length <= MAX_NAME_CODE_POINTS

const isValidNewPet = (body: unknown): boolean => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const fields = body as Record<string, unknown>
  return (
    isValidName(fields.name) &&
    typeof fields.categoryId === 'number' &&
    Number.isSafeInteger(fields.categoryId) &&
    (fields.status === undefined || (STATUSES as ReadonlyArray<unknown>).includes(fields.status))
  )
}

const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** 201 for a valid NewPet sent as UTF-8 JSON without U+FFFD; 415 for another media type or charset; 400 otherwise. */
export const expectedCreateStatus = (contentType: string | undefined, body: string): 201 | 400 | 415 => {
  if (body === '') return 400
  const [type = '', ...parameters] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase())
  if (type !== 'application/json') return 415
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length)
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return 415
  // Sent as UTF-8, a lone surrogate becomes U+FFFD, which the service refuses: after its body
  // parser's decoding, U+FFFD cannot be told apart from bytes that were not UTF-8 (ADR 0401).
  if (body.toWellFormed().includes('\uFFFD')) return 400
  const parsed = parseJson(body)
  if (!parsed.ok || hasProtoKey(parsed.value)) return 400
  return isValidNewPet(parsed.value) ? 201 : 400
}

/** The pet a 201 must return, from the sent body. */
export const expectedPet = (id: number, body: string): Record<string, unknown> => {
  const fields = JSON.parse(body) as Record<string, unknown>
  return { id, name: fields.name, categoryId: fields.categoryId, status: fields.status ?? 'available' }
}

/** 200 when every parameter is known, given once and valid; 400 otherwise. */
export const expectedListStatus = (
  parameters: ReadonlyArray<readonly [string, string]>,
  isValidCursor: (text: string) => boolean,
): 200 | 400 => {
  const names = parameters.map(([name]) => name)
  if (new Set(names).size !== names.length) return 400
  for (const [name, value] of parameters) {
    if (name === 'limit' && !/^(?:[1-9][0-9]?|100)$/.test(value)) return 400
    if (name === 'status' && !(STATUSES as ReadonlyArray<string>).includes(value)) return 400
    if (name === 'after' && !isValidCursor(value)) return 400
    if (!['limit', 'status', 'after'].includes(name)) return 400
  }
  return 200
}

const INT64_MAX = 2n ** 63n - 1n

/** 400 unless canonical decimal int64; then 200 when a pet has that id, else 404. */
export const expectedGetStatus = (petId: string, exists: (id: bigint) => boolean): 200 | 400 | 404 => {
  if (!/^(?:0|-?[1-9][0-9]*)$/.test(petId)) return 400
  const id = BigInt(petId)
  if (id > INT64_MAX || id < -INT64_MAX - 1n) return 400
  return exists(id) ? 200 : 404
}

/** 200 only for `Bearer <a configured key>` (scheme in any case, one or more spaces); 401 otherwise. */
export const expectedAuthStatus = (authorization: string, keys: ReadonlyArray<string>): 200 | 401 => {
  const normalized = authorization.replace(/^[ \t]+|[ \t]+$/g, '')
  const match = /^bearer( +)(.*)$/i.exec(normalized)
  return match !== null && keys.includes(match[2] ?? '') ? 200 : 401
}
