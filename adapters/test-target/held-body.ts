import type { Redact } from '../http/key-redaction.js'
import { textBytes } from '../../src/store/meter.js'
import { type KeptBody, keptFromText } from './journal-body.js'

/** A body as an entry holds it until the entry is first read: what it takes of the budget, and the body as the entry shows it. */
export interface HeldBody {
  readonly bytes: number
  readonly shown: () => KeptBody
}

/** A body held already as its entry shows it. */
export const heldAsShown = (kept: KeptBody): HeldBody => ({ bytes: textBytes(kept.body ?? ''), shown: () => kept })

/**
 * A body whose whole text is at hand, of at most `bound` characters: held as it is (the string sent
 * or read, no copy), and redacted and cut (keptFromText) only when its entry is read, which most
 * never are. That shows what doing it now would: the keys redacted, configured ones and the made
 * keys' form, do not change while the service runs. A longer text is redacted and cut now, so that
 * an entry never holds more than its bound.
 */
export const heldText = (text: string, redact: Redact, bound: number): HeldBody =>
  text.length > bound
    ? heldAsShown(keptFromText(text, redact, bound))
    : { bytes: textBytes(text), shown: () => keptFromText(text, redact, bound) }
