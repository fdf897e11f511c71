/** inflation 2.1.0 ships no types: the stream, decoded by its request's Content-Encoding. */
declare module 'inflation' {
  import type { IncomingMessage } from 'node:http'
  import type { Readable } from 'node:stream'

  const inflate: (request: IncomingMessage) => Readable
  export default inflate
}
