import { randomUUID } from 'node:crypto'
import { denotesInteger, NumberText } from '../../src/domain/integer-text.js'

/**
 * The checks a JSON body gets after @koa/bodyparser has parsed it (json-body.ts): what JSON.parse
 * lets through but the service refuses. They read the raw text the parser kept, which JSON.parse has
 * accepted, so they only follow strings and nesting; only a body holding a rounded integer is parsed again.
 */

/** Characters a JSON number literal is made of. */
const isNumberCharacter = (code: number): boolean =>
  (code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46 || code === 101 || code === 69

/**
 * JSON `text` (already accepted by JSON.parse) parsed with each number literal that JSON.parse would
 * round to an integer it does not denote (`0.99999999999999999` to 1, `1e-400` to 0) kept as its
 * NumberText, for the domain's integer rule to judge, at any depth; undefined when the text holds
 * none. Such a literal is written as a string behind a mark the client cannot know (a new one each
 * time), which the parse's reviver turns into the NumberText; the client's own strings are skipped.
 */
export const withRoundedIntegersAsText = (text: string): unknown => {
  const mark = `${randomUUID()}:`
  let rewritten = ''
  let copiedUpTo = 0
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at)
    if (code === 34) {
      for (at += 1; text.charCodeAt(at) !== 34; at += 1) if (text.charCodeAt(at) === 92) at += 1
    } else if (code === 45 || (code >= 48 && code <= 57)) {
      const start = at
      while (at < text.length && isNumberCharacter(text.charCodeAt(at))) at += 1
      const literal = text.slice(start, at)
      if (Number.isInteger(Number(literal)) && !denotesInteger(literal)) {
        rewritten += `${text.slice(copiedUpTo, start)}"${mark}${literal}"`
        copiedUpTo = at
      }
      at -= 1
    }
  }
  if (copiedUpTo === 0) return undefined
  return JSON.parse(rewritten + text.slice(copiedUpTo), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(mark) ? new NumberText(value.slice(mark.length)) : value,
  ) as unknown
}

/**
 * Whether arrays and objects in JSON `text` (already accepted by JSON.parse) nest deeper than `max`
 * levels, a top-level one being one. Read on the text, skipping strings, because walking the parsed
 * value cost a third of the parse on a body of 90,000 keys, and a tenth of that on the text.
 */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at)
    if (code === 34) {
      for (at += 1; text.charCodeAt(at) !== 34; at += 1) if (text.charCodeAt(at) === 92) at += 1
    } else if (code === 123 || code === 91) {
      depth += 1
      if (depth > max) return true
    } else if (code === 125 || code === 93) depth -= 1
  }
  return false
}
