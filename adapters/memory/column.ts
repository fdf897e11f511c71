/**
 * Slots per chunk, 2 ** CHUNK_BITS: 4,096 references take 32 KiB, below V8's large-object size
 * (128 KiB), so a chunk is an ordinary object the young generation can hold while it fills.
 */
const CHUNK_BITS = 12
const CHUNK_SLOTS = 2 ** CHUNK_BITS
const SLOT_MASK = CHUNK_SLOTS - 1

/** Values appended one by one and read by index, never changed or removed. */
export interface Column<T> {
  readonly size: () => number
  readonly append: (value: T) => void
  /** The value at `index`, undefined outside 0..size() - 1. */
  readonly at: (index: number) => T | undefined
}

/**
 * A column in chunks of a fixed size, each made at its full size once and never copied. An array
 * grown by `push` is copied into one half again as large each time it fills: a store that keeps
 * growing leaves copies nearly as large as itself behind, which only a full collection frees, so
 * that its creates ran those collections the more often the larger it was (docs/performance.md).
 */
export const column = <T>(): Column<T> => {
  const chunks: T[][] = []
  /** The last chunk, the one appended to. */
  let filling: T[] = []
  let size = 0
  return {
    size: () => size,
    append: (value) => {
      const slot = size & SLOT_MASK
      if (slot === 0) {
        filling = new Array<T>(CHUNK_SLOTS)
        chunks.push(filling)
      }
      filling[slot] = value
      size += 1
    },
    at: (index) => (index >= 0 && index < size ? chunks[index >>> CHUNK_BITS]?.[index & SLOT_MASK] : undefined),
  }
}
