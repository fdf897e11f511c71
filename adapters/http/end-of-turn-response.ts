import { type IncomingMessage, ServerResponse } from 'node:http'
import { oncePerTurn } from './once-per-turn.js'

/**
 * A ServerResponse class (createServer's `ServerResponse` option) whose `end()` is carried out at
 * the end of the event loop's turn, together with every other response ended in that turn, in the
 * order they were ended. What a client receives is unchanged, byte for byte; it is sent after the
 * other requests read in the same turn have been answered, microseconds later.
 *
 * Why: every response written to a socket makes the kernel wake whoever reads it, and on a busy
 * server that wake-up, done one response at a time between the handling of requests, cost about as
 * much as a request's own work (measured in docs/performance.md). Written together, the sends run
 * back to back and a client reading several connections is woken once for all of them.
 */
export const endOfTurnResponse = () => {
  const endNow = oncePerTurn((ending: { readonly response: EndOfTurnResponse; readonly args: unknown[] }): void =>
    ending.response.endAtOnce(ending.args),
  )
  class EndOfTurnResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
    override end(...args: unknown[]): this {
      endNow({ response: this, args })
      return this
    }

    /** Node's own end(), with the arguments end() was given (any of its overloads). */
    endAtOnce(args: unknown[]): void {
      super.end(...(args as []))
    }
  }
  return EndOfTurnResponse
}
