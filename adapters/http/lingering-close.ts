import type { Duplex } from 'node:stream'

/**
 * Sends the HTTP server's own last answer on a connection and ends it, then lets the connection
 * linger: it is destroyed once its client closes its side too, or `lingerMs` after the answer,
 * whichever comes first, so that no client holds it longer, whatever it does (it may never read nor
 * close). Not at once: closing a socket with bytes of the client's still unread makes the kernel
 * reset the connection, and a reset can make the client's kernel discard the answer before its
 * client read it. Meanwhile what the client sends must be read and discarded, for its close to be
 * seen: Node's parser reads on (a failed one too) unless it was detached (see the CONNECT's).
 */
export const endLingering = (socket: Duplex, answer: string, lingerMs: number): void => {
  socket.end(answer)
  const linger = setTimeout(() => socket.destroy(), lingerMs)
  // A lingering connection keeps no process alive; its end clears the timer.
  linger.unref()
  socket.once('close', () => clearTimeout(linger))
}
