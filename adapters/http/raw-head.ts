import { type OutgoingHttpHeaders, STATUS_CODES } from 'node:http'

/**
 * The head of an HTTP/1.1 answer as its lines, status line first, one line per header value: for
 * the bytes written to a socket directly, where Node's response cannot write them (there is none,
 * or the head itself is to be cut short).
 */
export const rawHeadLines = (status: number, headers: OutgoingHttpHeaders): string[] => [
  `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
  ...Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [value].flat().map((each) => `${name}: ${each}`))),
]
