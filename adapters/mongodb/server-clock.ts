/**
 * The server's clock in an aggregation-pipeline update: `$$NOW`, plus `laterMs`, moved by
 * `offsetMs`, which is 0 in production (tests move the clock this way, since they cannot move the
 * server's). Expiry and windows read this clock, never an instance's: instances' clocks drift, and
 * MongoDB's TTL monitor, which deletes what has expired, reads the server's.
 */
export const serverTime = (offsetMs: number, laterMs = 0): string | { readonly $add: readonly [string, number] } =>
  offsetMs + laterMs === 0 ? '$$NOW' : { $add: ['$$NOW', offsetMs + laterMs] }
