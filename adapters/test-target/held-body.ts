import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'
import { type KeptBody, keptFromText } from './journal-body.js'

/** The most of a request's or an answer's body an entry keeps. */
export const JOURNAL_BODY_BYTES = 4096

/**
 * A body as an entry holds it until the entry is first read: the text as it was sent or read (no
 * copy), of at most JOURNAL_BODY_BYTES characters, redacted and cut (keptFromText) only when read,
 * which most never are; or, when that cannot wait, the body as the entry shows it. A value, not an
 * object with a function: the journal holds it for as long as it keeps the entry, and every young
 * collection copies each object it holds.
 */
export type HeldBody = string | KeptBody

export const NO_BODY: HeldBody = { body: null, bodyTruncated: false }

/**
 * A body whose whole text is at hand: held as it is when it is within the bound, as showing it later
 * would show what doing it now would (the keys redacted, configured ones and the made keys' form, do
 * not change while the service runs); a longer text is redacted and cut now, so that an entry never
 * holds more than its bound.
 */
export const heldText = (text: string, redact: Redact): HeldBody =>
  text.length > JOURNAL_BODY_BYTES ? keptFromText(text, redact, JOURNAL_BODY_BYTES) : text

/** What a held body takes of the sandbox's budget. */
export const heldBytes = (held: HeldBody): number => textBytes(typeof held === 'string' ? held : (held.body ?? ''))

/** A held body as its entry shows it. */
export const shownBody = (held: HeldBody, redact: Redact): KeptBody =>
  typeof held === 'string' ? keptFromText(held, redact, JOURNAL_BODY_BYTES) : held
