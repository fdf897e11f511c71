/**
 * A text read for what it spells: each percent-escape (`%2F`) and JSON escape (`\/`, `\u002d`) as the
 * one character it stands for, so that a key written with any of them is found (key-redaction.ts).
 */

const isHexDigit = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)

const hexDigitsAt = (text: string, at: number, count: number): boolean => {
  if (at + count > text.length) return false
  for (let index = at; index < at + count; index += 1) if (!isHexDigit(text.charCodeAt(index))) return false
  return true
}

/**
 * How many characters spell the one at `at`, and what it is: a percent-escape (`%2F` or `%2f`: a key
 * is ASCII, one byte a character), a JSON escape (`\u002F` in either case, or `\/`), or itself.
 */
const spelledAt = (text: string, at: number): readonly [character: string, length: number] => {
  const code = text.charCodeAt(at)
  if (code === 0x25 && hexDigitsAt(text, at + 1, 2)) return [String.fromCharCode(parseInt(text.slice(at + 1, at + 3), 16)), 3]
  if (code === 0x5c && text.charAt(at + 1) === '/') return ['/', 2]
  if (code === 0x5c && text.charAt(at + 1) === 'u' && hexDigitsAt(text, at + 2, 4)) {
    return [String.fromCharCode(parseInt(text.slice(at + 2, at + 6), 16)), 6]
  }
  return [text.charAt(at), 1]
}

/** Characters read from a text, each escape as the one character it spells, and where in the text each starts. */
export interface Reading {
  readonly characters: string
  /** Where character `index` starts in the text; where the last one ends for `characters.length`. */
  readonly placeOf: (index: number) => number
  /** The characters spelled by an escape, in order. */
  readonly escaped: ReadonlyArray<number>
}

/** A text whose characters are each itself. */
const plainReading = (text: string): Reading => ({ characters: text, placeOf: (index) => index, escaped: [] })

/** Where an escape may start. */
const ESCAPE_START = /[%\\]/g

/** `text` read for keys: copied in stretches between its escapes, each escape as its character. */
export const readingOf = (text: string): Reading => {
  // Most texts (paths, headers, request ids, bodies) hold no escape: each character is itself.
  if (!text.includes('%') && !text.includes('\\')) return plainReading(text)
  let characters = ''
  const escaped: number[] = []
  /** For each escape, how many more characters the text has than the reading up to its end. */
  const shifts: number[] = []
  let copied = 0
  ESCAPE_START.lastIndex = 0
  for (let found = ESCAPE_START.exec(text); found !== null; found = ESCAPE_START.exec(text)) {
    const [character, length] = spelledAt(text, found.index)
    if (length === 1) continue
    characters += `${text.slice(copied, found.index)}${character}`
    escaped.push(characters.length - 1)
    shifts.push((shifts[shifts.length - 1] ?? 0) + length - 1)
    copied = found.index + length
    ESCAPE_START.lastIndex = copied
  }
  if (escaped.length === 0) return plainReading(text)
  characters += text.slice(copied)
  /** How many escapes come before character `index`: a binary search of `escaped`. */
  const escapesBefore = (index: number): number => {
    let [low, high] = [0, escaped.length]
    while (low < high) {
      const middle = (low + high) >>> 1
      if ((escaped[middle] ?? 0) < index) low = middle + 1
      else high = middle
    }
    return low
  }
  return { characters, placeOf: (index) => index + (shifts[escapesBefore(index) - 1] ?? 0), escaped }
}
