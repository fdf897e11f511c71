import type { PetDraft } from '../../src/domain/pet.js'
import type { SeedOutcome } from '../../src/store/store.js'
import type { CounterDocument } from './mongo-pet-repository.js'
import { collectionIn, type MongoAccess, serverBound } from './mongo-options.js'
import { type PetDocument, toDocument } from './pet-document.js'
import { COUNTERS_COLLECTION, counterFilter, PETS_COLLECTION, seedDoneUpdate } from './pet-queries.js'

/** Pets written per round trip: one bulk write, one `update` command, bounded by its own `maxTimeMS`. */
export const SEED_BATCH_SIZE = 1000

/** The round trips of seedMongoPets for `count` pets: look for a pet, mark, read the mark, each batch, lift the mark. */
export const seedRoundTrips = (count: number): number => 4 + Math.ceil(count / SEED_BATCH_SIZE)

/** Seeds a data set with no pets once across instances and crashes: a `seeding` mark on the id counter claims it (ADR 2001). */
export const seedMongoPets = async (access: MongoAccess, drafts: ReadonlyArray<PetDraft>): Promise<SeedOutcome> => {
  const bound = serverBound(access.timeoutMs)
  const counters = await collectionIn<CounterDocument>(access, COUNTERS_COLLECTION)
  const pets = await collectionIn<PetDocument>(access, PETS_COLLECTION)
  // Pets stored without their counter (restored by hand) hold ids a new counter would hand out again.
  if ((await pets.findOne({}, { ...bound, projection: { _id: 1 } })) === null) {
    await counters.updateOne(counterFilter, { $setOnInsert: { next: drafts.length, seeding: true } }, { ...bound, upsert: true })
  }
  if ((await counters.findOne(counterFilter, bound))?.seeding !== true) return { kind: 'not-empty' }
  for (let first = 0; first < drafts.length; first += SEED_BATCH_SIZE) {
    const batch = drafts.slice(first, first + SEED_BATCH_SIZE).map((draft, index) => {
      const { _id, ...fields } = toDocument({ id: first + index + 1, ...draft })
      return { updateOne: { filter: { _id }, update: { $setOnInsert: fields }, upsert: true } }
    })
    await pets.bulkWrite(batch, { ...bound, ordered: false })
  }
  await counters.updateOne(counterFilter, seedDoneUpdate(drafts.length), bound)
  return { kind: 'seeded', count: drafts.length }
}
