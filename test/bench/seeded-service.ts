import * as E from 'fp-ts/Either'
import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { readConfig } from '../../src/config.js'
import { PET_STATUSES } from '../../src/domain/pet.js'
import { startService } from '../../src/service.js'

/**
 * The composed service exactly as `npm start` runs it (default settings, request logging on), with
 * its memory store seeded in-process with BENCH_PETS pets first: a million creates over HTTP would
 * take longer than the benchmark itself.
 */
const seed = async (): Promise<void> => {
  const count = Number(process.env.BENCH_PETS ?? '1000')
  const repository = memoryPetRepository()
  for (let index = 0; index < count; index += 1) {
    await repository.insert({ name: `pet ${index}`, categoryId: index % 10, status: PET_STATUSES[index % 3] ?? 'available' })()
  }
  const config = readConfig(process.env, () => 'unused-generated-key')
  if (E.isLeft(config)) throw new Error(config.left.join('; '))
  startService(config.right, { repository, idempotency: memoryIdempotencyStore(), close: async () => undefined })
}

void seed()
