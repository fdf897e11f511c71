import { memoryRateLimitCounter } from '../../adapters/memory/memory-rate-limit-counter.js'
import { rateLimitCounterContract } from '../ports/rate-limit-counter.contract.js'

rateLimitCounterContract('memory', async (now) => {
  const counter = memoryRateLimitCounter({ now })
  // One process holds one memory counter: another "instance" in the same process shares it.
  return { counter, sibling: async () => counter, dispose: async () => undefined }
})
