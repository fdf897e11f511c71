import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'
import { idempotencyStoreContract } from '../ports/idempotency-store.contract.js'

idempotencyStoreContract('memory', async (times) => {
  const store = memoryIdempotencyStore(times)
  // One process holds one memory store: another "instance" in the same process shares it.
  return { store, sibling: async () => store, dispose: async () => undefined }
})
