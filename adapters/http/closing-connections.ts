import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

/**
 * Node sends nothing on a connection after an answer that says `Connection: close`, yet parses what
 * arrives after it all the same: a request carried out then would never be answered. So once such an
 * answer is decided (the HTTP server's own, or one of the app's), no request arriving on the
 * connection is carried out (http-server.ts). Nor is a request the HTTP server answered itself while
 * the app had it (a 408 while its body was arriving), even if the rest of its body comes after.
 */
const closing = new WeakSet<Duplex>()
const answeredByServer = new WeakSet<IncomingMessage>()

/** The connection's closing answer is decided. */
export const markClosing = (socket: Duplex): void => void closing.add(socket)

/** Whether the connection's closing answer is decided: a request arriving on it now is not carried out. */
export const isClosing = (socket: Duplex): boolean => closing.has(socket)

/** The HTTP server answered the request itself, which the app had begun. */
export const markAnsweredByServer = (request: IncomingMessage): void => void answeredByServer.add(request)

/** Whether the HTTP server answered the request itself: the app neither carries it out nor logs it. */
export const isAnsweredByServer = (request: IncomingMessage): boolean => answeredByServer.has(request)
