import type { ServerResponse } from 'node:http'

interface Answer {
  readonly response: ServerResponse
  readonly status: number
  readonly json: string
}

let pending: Answer[] = []

const sendAll = (): void => {
  const answers = pending
  pending = []
  for (const { response, status, json } of answers) {
    response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) })
    response.end(json)
  }
}

/**
 * The limit servers' way to answer: a JSON body with only Content-Type and Content-Length, written
 * together with the other answers of the same event-loop turn at its end. Sent one at a time, each
 * response makes the kernel wake its reader between two requests; sent together, the same bytes
 * cost the minimal server about a tenth less CPU (docs/performance.md), and the limit is the fastest
 * honest server. The service does the same with adapters/http/end-of-turn-response.ts, which the
 * limit servers may not use: they are built from none of the service's modules.
 */
export const sendJson = (response: ServerResponse, status: number, json: string): void => {
  if (pending.length === 0) setImmediate(sendAll)
  pending.push({ response, status, json })
}
