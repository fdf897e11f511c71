/**
 * What a bounded holder keeps, in estimated bytes: the engine tells no object's size, so every
 * holder follows one rule: 2 bytes per character of each string kept (UTF-16; the engine keeps
 * ASCII in 1), plus a fixed overhead per object, entry or value kept.
 */
export interface Meter {
  /** Counts `bytes` more, and answers true, when they fit in the limit; otherwise counts nothing and answers false. */
  readonly charge: (bytes: number) => boolean
  /** Counts `bytes` fewer: something charged was let go. */
  readonly release: (bytes: number) => void
  readonly used: () => number
  readonly limit: number
}

export const meter = (limit: number): Meter => {
  let used = 0
  return {
    charge: (bytes) => {
      if (used + bytes > limit) return false
      used += bytes
      return true
    },
    release: (bytes) => void (used -= bytes),
    used: () => used,
    limit,
  }
}

/** The estimate of a string kept: 2 bytes a character. */
export const textBytes = (text: string): number => 2 * text.length

/** The estimate of each JSON value kept (object, array, string, number, boolean or null), beside its strings' characters. */
export const VALUE_BYTES = 64

/** The estimate of a parsed JSON value kept: VALUE_BYTES for it and for each value in it, and its strings' (and member names') characters. */
export const jsonBytes = (value: unknown): number => {
  if (typeof value === 'string') return VALUE_BYTES + textBytes(value)
  if (Array.isArray(value)) return value.reduce<number>((bytes, item) => bytes + jsonBytes(item), VALUE_BYTES)
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).reduce<number>((bytes, [name, member]) => bytes + textBytes(name) + jsonBytes(member), VALUE_BYTES)
  return VALUE_BYTES
}
