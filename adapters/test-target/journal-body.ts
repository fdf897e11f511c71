import { isUtf8 } from 'node:buffer'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Redact } from '../http/key-redaction.js'

/** A body as a journal entry shows it: text, or null when there was none; `bodyTruncated` when it is not all of it. */
export interface KeptBody {
  readonly body: string | null
  readonly bodyTruncated: boolean
}

/** What the journal caught of a request's body: its first bytes, and whether more was sent than they. */
export interface TappedBody {
  readonly bytes: Buffer
  /** More bytes followed, or the body had not all arrived when the request ended. */
  readonly cut: boolean
}

/** A request's body being tapped: what the journal caught of it, once it is all there. */
export interface BodyTap {
  /** Calls `done` once the body has ended, or nothing more of it will be read: at once when it has. Called once. */
  readonly whenTapped: (done: () => void) => void
  /**
   * What it caught, copied out of the chunks it arrived in: taken once the tap is done, and only
   * when needed (a body the service read whole is kept as the text it decoded).
   */
  readonly caught: () => TappedBody
}

/**
 * Catches the first `bound` bytes of the body of a request that has one (hasBody) for the journal,
 * without ever changing how the request is read or answered. It listens beside whoever reads the
 * body (the body parser, which reads with 'data' events), from the moment they begin, so it sees
 * every byte they do. A body nobody read by the time the answer is sent (refused before it was
 * read: a 415, a 405, a forced failure, a 413 by its Content-Length) it reads itself then, after
 * the answer, so that the answer is neither delayed nor changed: up to `bound` bytes kept, the rest
 * read and discarded as Node would discard it, except when the answer closes the connection (a body
 * refused for its size), where nothing past the bound is read. Never more than `bound` bytes are
 * kept. What arrived of a body that never ended (a `reset` fault, a client giving up partway, a
 * body refused for its size) is cut. Nearly every body has ended by the time its request ends; the
 * tap waits, and listens for how the wait ends, only for one that has not: still arriving, or not
 * yet read (its client left while the request was delayed).
 */
export const tapBody = (request: IncomingMessage, response: ServerResponse, bound: number): BodyTap => {
  const socket = request.socket
  const kept: Buffer[] = []
  let keptBytes = 0
  let received = 0
  let tapping = false
  /** Set when the journal reads the body itself and the connection closes after the answer. */
  let stopAtBound = false
  /** Nothing more will be read: the bound was passed on a connection the answer closes. */
  const stopped = (): boolean => stopAtBound && received > bound
  /** Set once the answer is written whole: the request is no longer closed with its connection then. */
  let answered = false
  /** Set while the journal waits for the rest of the body: hands it over. */
  let waiting: (() => void) | undefined
  function onData(chunk: Buffer): void {
    if (stopped()) return
    if (keptBytes < bound) {
      // A view, held while the request lasts: Node gives each chunk a buffer of its own, which nothing reuses.
      // Copied only if the journal needs the bytes (caught).
      const part = chunk.subarray(0, bound - keptBytes)
      kept.push(part)
      keptBytes += part.length
    }
    received += chunk.length
    if (stopped()) {
      request.pause()
      waiting?.()
    }
  }
  const tap = (): void => {
    tapping = true
    request.off('newListener', onNewListener)
    request.on('data', onData)
  }
  // 'newListener' is emitted before the reader's listener is added: the tap is in place before the first chunk flows.
  function onNewListener(event: string | symbol): void {
    if (event === 'data') tap()
  }
  request.on('newListener', onNewListener)
  // The answer is written whole: a body nobody began to read is read now, before Node would discard it unread.
  response.on('prefinish', () => {
    answered = true
    // A request already answered is not closed with its connection: the connection's end is the body's then.
    if (waiting !== undefined) socket.on('close', waiting)
    if (tapping) return
    // Read some other way than by 'data' events: what was read is not known, and nothing more will be.
    if (request.readableDidRead) return waiting?.()
    stopAtBound = String(response.getHeader('connection') ?? '').toLowerCase() === 'close'
    tap()
  })
  return {
    caught: () => ({ bytes: Buffer.concat(kept, keptBytes), cut: received > bound || !request.readableEnded }),
    whenTapped: (done) => {
      // Nothing more of it will be read: it ended, the bound was reached, its connection closed, or its answer ended with nobody reading it.
      if (request.readableEnded || stopped() || request.closed || socket.destroyed || (!tapping && response.destroyed)) return done()
      // A body still arriving, or not yet read (its client left while the request waited): its end, or its connection's, ends the wait.
      let settled = false
      const ended = (): void => {
        if (settled) return
        settled = true
        waiting = undefined
        request.off('end', ended)
        request.off('close', ended)
        if (answered) socket.off('close', ended)
        done()
      }
      waiting = ended
      request.on('end', ended)
      // A connection that closes before the answer is written whole closes its request (a reset, a truncated answer).
      request.on('close', ended)
      if (answered) socket.on('close', ended)
    },
  }
}

/** The bytes an API key can be written with (auth.ts's API_KEY_CHARACTERS), and `%` and `\` of one percent- or JSON-escaped. */
const KEY_BYTES: ReadonlyArray<boolean> = Array.from({ length: 256 }, (_, byte) => /[A-Za-z0-9\-._~+/=%\\]/.test(String.fromCharCode(byte)))

/**
 * `bytes` without the run of key characters that reaches their end: a key the cut went through
 * would show in part, where redaction, which matches whole keys, cannot see it.
 */
const withoutCutKey = (bytes: Buffer): Buffer => {
  let end = bytes.length
  while (end > 0 && KEY_BYTES[bytes[end - 1] ?? 0] === true) end -= 1
  return bytes.subarray(0, end)
}

/** How many bytes at the end of `bytes` begin a character the cut left incomplete: 0 to 3. */
const incompleteTail = (bytes: Uint8Array): number => {
  for (let back = 1; back <= 3 && back <= bytes.length; back += 1) {
    const byte = bytes[bytes.length - back] ?? 0
    if (byte < 0x80) return 0
    // A lead byte: how many bytes its character takes, against how many are here.
    if (byte >= 0xc0) return back < (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2) ? back : 0
  }
  return 0
}

/** How many bytes the well-formed UTF-8 character at `at` takes (Node's own validator decides); 0 when none starts there. */
const characterLength = (bytes: Buffer, at: number): number => {
  if ((bytes[at] ?? 0) < 0x80) return 1
  for (let length = 2; length <= 4 && at + length <= bytes.length; length += 1) if (isUtf8(bytes.subarray(at, at + length))) return length
  return 0
}

/** Bytes as text: UTF-8, with each byte that is no part of a well-formed character written `\xHH` (upper-case hex). */
export const escapedText = (bytes: Buffer): string => {
  if (isUtf8(bytes)) return bytes.toString('utf8')
  let text = ''
  let from = 0
  for (let at = 0; at < bytes.length;) {
    const length = characterLength(bytes, at)
    if (length > 0) {
      at += length
      continue
    }
    text += `${bytes.toString('utf8', from, at)}\\x${(bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`
    at += 1
    from = at
  }
  return text + bytes.toString('utf8', from)
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]$/

/** A body whose whole text is at hand (an answer, a body the service read whole): every key redacted, then cut at `bound` bytes, never inside a character. */
export const keptFromText = (text: string, redact: Redact, bound: number): KeptBody => {
  const redacted = redact(text)
  if (redacted === '') return { body: null, bodyTruncated: false }
  // A character takes at least a byte: `bound` characters hold the cut. Half a surrogate pair is no character.
  const head = redacted.length > bound ? redacted.slice(0, bound).replace(HIGH_SURROGATE, '') : redacted
  // Counted, not encoded: most bodies fit whole.
  if (head === redacted && Buffer.byteLength(head) <= bound) return { body: redacted, bodyTruncated: false }
  const cut = Buffer.from(head).subarray(0, bound)
  return { body: cut.subarray(0, cut.length - incompleteTail(cut)).toString('utf8'), bodyTruncated: true }
}

/**
 * A body of which only the first bytes are at hand, at most the bound (a request's body as tapped, an
 * answer's bytes sent): escaped, every key redacted. When more was sent, the text ends before a
 * character the cut went through and before a run of key characters that reaches the cut.
 */
export const keptFromBytes = ({ bytes, cut }: TappedBody, redact: Redact): KeptBody => {
  // Most requests have no body: nothing to escape or redact.
  if (bytes.length === 0) return { body: null, bodyTruncated: cut }
  const shown = cut ? withoutCutKey(bytes) : bytes
  const text = redact(escapedText(cut ? shown.subarray(0, shown.length - incompleteTail(shown)) : shown))
  return { body: text === '' ? null : text, bodyTruncated: cut }
}
