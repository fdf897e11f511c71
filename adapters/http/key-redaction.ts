import { type Reading, readingOf } from './escaped-text.js'

/** What stands in for an API key in what the service shows. */
export const REDACTED = '[redacted]'

/** What ends a text the service cut short (a name a message repeats, a logged path). */
export const CUT_MARK = '…'

/** A text with every API key in it replaced by REDACTED. */
export type Redact = (text: string) => string

/** For a service that knows no key to hide (a benchmark's rung, a test of something else). */
export const redactNothing: Redact = (text) => text

/** The fewest characters of a configured key that are hidden wherever they appear: fewer tell too little to matter. */
export const SHORTEST_HIDDEN_RUN = 8

/**
 * Keys known by their form rather than listed, as keys made at run time are: `prefix`, then base64url
 * characters (`A-Z a-z 0-9 - _`), `length` characters in all.
 */
interface KeyForm {
  readonly prefix: string
  readonly length: number
}

const BASE64URL = /^[A-Za-z0-9_-]$/

/** A percent-escape or a JSON escape that a cut left incomplete, as the text before a cut mark may end. */
const INCOMPLETE_ESCAPE = /^(?:%[0-9A-Fa-f]?|\\(?:u[0-9A-Fa-f]{0,3})?)?$/
const LONGEST_INCOMPLETE_ESCAPE = 5
/** The most characters an escape takes: `\u` and four hex digits. */
const LONGEST_ESCAPE = 6

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every run of SHORTEST_HIDDEN_RUN characters of each key; a key is longer (the configuration asks for 16 characters). */
const runsOf = (keys: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...new Set(
    keys.flatMap((key) => {
      if (key.length < SHORTEST_HIDDEN_RUN) throw new Error(`an API key must be at least ${SHORTEST_HIDDEN_RUN} characters to be redacted`)
      return Array.from({ length: key.length - SHORTEST_HIDDEN_RUN + 1 }, (_, at) => key.slice(at, at + SHORTEST_HIDDEN_RUN))
    }),
  ),
]

/** The length of an anchor: every run of SHORTEST_HIDDEN_RUN characters of a key holds one of its anchors whole. */
const ANCHOR_LENGTH = SHORTEST_HIDDEN_RUN / 2

/**
 * Each key's stretches of ANCHOR_LENGTH characters from its start, end to end: a run starting at
 * `s` holds the one that starts at the next multiple of ANCHOR_LENGTH, which ends before `s +
 * SHORTEST_HIDDEN_RUN`. A text without any of them holds no run: the search for the fewer anchors
 * tells it sooner than the search for every run.
 */
const anchorsOf = (keys: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...new Set(
    keys.flatMap((key) =>
      Array.from({ length: Math.floor(key.length / ANCHOR_LENGTH) }, (_, block) =>
        key.slice(block * ANCHOR_LENGTH, (block + 1) * ANCHOR_LENGTH),
      ),
    ),
  ),
]

/** `text` with each stretch of `hidden` (places in it, overlapping or touching ones as one) replaced by REDACTED. */
const withHidden = (text: string, hidden: Array<readonly [from: number, to: number]>): string => {
  hidden.sort(([a], [b]) => a - b)
  let shown = ''
  let shownTo = 0
  let hiding: readonly [number, number] | undefined
  for (const [from, to] of hidden) {
    if (hiding !== undefined && from <= hiding[1]) hiding = [hiding[0], Math.max(hiding[1], to)]
    else {
      if (hiding !== undefined) shown += `${text.slice(shownTo, hiding[0])}${REDACTED}`
      shownTo = hiding?.[1] ?? 0
      hiding = [from, to]
    }
  }
  if (hiding === undefined) return text
  return `${shown}${text.slice(shownTo, hiding[0])}${REDACTED}${text.slice(hiding[1])}`
}

/**
 * Replaces, in a text, every run of SHORTEST_HIDDEN_RUN or more characters of one of `keys` (a whole
 * key, or any part of one that long), and any text of one of `forms`, by `[redacted]`: each of their
 * characters written plainly, percent-encoded or as a JSON escape, so that a key in a URL or in a
 * JSON body is found too. A text of a form that a cut went through (its prefix and some of its
 * characters, then CUT_MARK) is replaced too, so that cutting a text before redacting it shows
 * nothing of a made key; a configured key's part at a cut is a run like any other. Runs that touch or
 * overlap are replaced as one.
 *
 * A key holds neither `%` nor `\`, so where an escape starts, reading it is the only way a key can go
 * on: the text is read once, escapes as their characters, and searched for every run of every key
 * at once (a regex of literals: linear in the text). A run can also start inside an escape, its hex
 * digits read as they are: each escape's few such starts are tried too.
 */
export const keyRedactor = (keys: ReadonlyArray<string>, forms: ReadonlyArray<KeyForm> = []): Redact => {
  if (keys.length === 0 && forms.length === 0) return redactNothing
  const runs = runsOf(keys)
  const anyAnchor = runs.length === 0 ? undefined : new RegExp(anchorsOf(keys).map(escapeRegExp).join('|'))
  const anyRun = runs.length === 0 ? undefined : new RegExp(runs.map(escapeRegExp).join('|'), 'g')
  const runAtStart = runs.length === 0 ? undefined : new RegExp(runs.map(escapeRegExp).join('|'), 'y')
  const shortest = Math.min(...(runs.length === 0 ? [] : [SHORTEST_HIDDEN_RUN]), ...forms.map((form) => form.prefix.length + 1))
  const longest = Math.max(SHORTEST_HIDDEN_RUN, ...forms.map((form) => form.length))

  /**
   * Where the text of `form` that starts at character `at` of `reading` ends (a place in `text`):
   * after it when whole, at the cut mark when a cut went through it (the escape the cut left
   * incomplete hidden with it); undefined when it is neither.
   */
  const formEnd = (text: string, { characters, placeOf }: Reading, at: number, { prefix, length }: KeyForm): number | undefined => {
    let end = at + prefix.length
    while (end - at < length && end < characters.length && BASE64URL.test(characters.charAt(end))) end += 1
    if (end - at === length) return placeOf(end)
    if (end - at === prefix.length) return undefined
    const place = placeOf(end)
    const cut = text.slice(place, place + LONGEST_INCOMPLETE_ESCAPE + CUT_MARK.length).indexOf(CUT_MARK)
    return cut !== -1 && INCOMPLETE_ESCAPE.test(text.slice(place, place + cut)) ? place + cut : undefined
  }

  /** The stretches of `text` to hide that `reading` shows; with `atStartOnly`, those from its first character alone. */
  const hiddenIn = (text: string, reading: Reading, atStartOnly: boolean): Array<readonly [number, number]> => {
    const { characters, placeOf } = reading
    const hidden: Array<readonly [number, number]> = []
    const pattern = atStartOnly ? runAtStart : anyRun
    if (pattern !== undefined && (atStartOnly || anyAnchor?.test(characters) === true)) {
      pattern.lastIndex = 0
      for (let run = pattern.exec(characters); run !== null; run = atStartOnly ? null : pattern.exec(characters)) {
        hidden.push([placeOf(run.index), placeOf(run.index + SHORTEST_HIDDEN_RUN)])
        // Runs overlap: the next may start at the next character.
        pattern.lastIndex = run.index + 1
      }
    }
    for (const form of forms) {
      for (
        let at = characters.indexOf(form.prefix);
        at !== -1 && (!atStartOnly || at === 0);
        at = characters.indexOf(form.prefix, at + 1)
      ) {
        const end = formEnd(text, reading, at, form)
        if (end !== undefined) hidden.push([placeOf(at), end])
      }
    }
    return hidden
  }

  /** What a run or a form may start with inside an escape: its first characters, as many as an escape's after its first. */
  const startsInside = new Set(
    [...runs, ...forms.map(({ prefix }) => prefix)].flatMap((start) =>
      Array.from({ length: LONGEST_ESCAPE - 1 }, (_, length) => start.slice(0, length + 1)),
    ),
  )

  return (text) => {
    // A text shorter than every run it could hold holds none: most paths and request ids are, and skip the search.
    if (text.length < shortest) return text
    const reading = readingOf(text)
    const hidden = hiddenIn(text, reading, false)
    // Runs that start inside an escape, at one of its hex digits (or its `u`), read plainly to its end, then on.
    for (const index of reading.escaped) {
      const next = reading.placeOf(index + 1)
      for (let inside = reading.placeOf(index) + 1; inside < next; inside += 1) {
        const plain = text.slice(inside, next)
        if (!startsInside.has(plain)) continue
        const from: Reading = {
          characters: `${plain}${reading.characters.slice(index + 1, index + 1 + longest)}`,
          placeOf: (at) => (at < plain.length ? inside + at : reading.placeOf(index + 1 + at - plain.length)),
          escaped: [],
        }
        hidden.push(...hiddenIn(text, from, true))
      }
    }
    return withHidden(text, hidden)
  }
}
