import * as E from 'fp-ts/Either'
import { readConfig } from '../../src/main/config.js'
import { PET_STATUSES } from '../../src/domain/pet.js'
import { runService } from '../../src/main/service.js'
import { openStore } from '../../src/main/store.js'

/**
 * The composed service exactly as `npm start` runs it (default settings, request logging on), with
 * its memory store seeded in-process with BENCH_PETS pets first (the scaling part creates its
 * million over HTTP instead, from BENCH_PETS=0). BENCH_OFF (comma-separated: log, metrics) turns
 * features off through their settings, so that the benchmark can say what each costs (FEATURES). Only
 * features an operator can turn off are measured so: ETags and request ids have no setting, and the
 * benchmark runs nothing a user cannot. BENCH_MODE=test-target runs it as a test target for client
 * developers.
 */

/** The settings of test-target mode (per-key sandboxes, each with its request journal; faults on): here only. */
const TEST_TARGET_MODE = { PETSTORE_TEST_TARGET: 'on' }

const count = Number(process.env.BENCH_PETS ?? '1000')
const pets = Array.from({ length: count }, (_, index) => ({
  name: `pet ${index}`,
  categoryId: index % 10,
  status: PET_STATUSES[index % 3] ?? 'available',
}))
const off = new Set((process.env.BENCH_OFF ?? '').split(',').filter((feature) => feature !== ''))
const config = readConfig(
  {
    ...process.env,
    ...(process.env.BENCH_MODE === 'test-target' ? TEST_TARGET_MODE : {}),
    // The request line is written at info.
    ...(off.has('log') ? { LOG_LEVEL: 'warn' } : {}),
    ...(off.has('metrics') ? { PETSTORE_METRICS: 'off' } : {}),
  },
  () => 'unused-generated-key',
)
if (E.isLeft(config)) throw new Error(config.left.join('; '))
// Opened as `npm start` opens it, seeded with the pets.
void openStore(config.right.store, pets).then((store) => {
  if (E.isLeft(store)) throw new Error(store.left)
  return runService(config.right, store.right)
})
