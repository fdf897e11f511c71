import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'

/** An idempotency store that records every call and answers from a memory store. */
export const spiedIdempotency = () => {
  const calls: string[] = []
  const store = memoryIdempotencyStore()
  return {
    calls,
    store: {
      claim: (scope: string, fingerprint: string) => (calls.push(`claim ${scope}`), store.claim(scope, fingerprint)),
      complete: (...args: Parameters<typeof store.complete>) => (calls.push('complete'), store.complete(...args)),
      endLease: (scope: string, token: string) => (calls.push('endLease'), store.endLease(scope, token)),
    },
  }
}
