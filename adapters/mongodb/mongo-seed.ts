import type { PetDraft } from '../../src/domain/pet.js'
import type { SeedOutcome } from '../../src/wiring/store.js'
import type { CounterDocument, PetCollections } from './mongo-pet-repository.js'
import { upsertOnceMore } from './mongo-call.js'
import { collectionIn, type MongoAccess, serverBound } from './mongo-options.js'
import { type PetDocument, toDocument } from './pet-document.js'
import { counterFilter, seedDoneUpdate } from './pet-queries.js'

/**
 * Pets written per round trip. Each batch is one bulk write, so one `update` command, bounded on
 * the server by its own `maxTimeMS` (the driver's bulk/common.ts executeCommands gives every
 * command it sends the call's options, and operations/command.ts adds `maxTimeMS` to it).
 */
export const SEED_BATCH_SIZE = 1000

/**
 * The round trips of seedMongoPets for `count` pets (look for a pet, mark, read the mark, each
 * batch, lift the mark), so that a large seed's call gets the time its batches need.
 */
export const seedRoundTrips = (count: number): number => 4 + Math.ceil(count / SEED_BATCH_SIZE)

/**
 * Seeds one data set exactly once, even when several instances start on it together. The id
 * counter decides: creating it (upsert) with `next` already past the seed and a `seeding` mark
 * claims the seed, so a create racing the seed gets id n+1. It is only created where no pet is
 * stored: pets that came without their counter (restored or imported by hand) make a data set that
 * holds pets, and a counter made now would hand their ids out again. Whoever finds the mark (the
 * claimer, an instance that raced it, or the next start after a crash mid-seed) writes the seed's
 * pets by their fixed ids 1..n with $setOnInsert, batch after batch, which any number of writers
 * can repeat without changing a pet (so a seed cut off between batches is resumed by the next
 * attempt), then lifts the mark (see seedDoneUpdate). Only the claimer answers `seeded`, the
 * others `finished`, so that one instance says it seeded the store. A counter without the mark
 * means pets were created: never seeded again.
 */
export const seedMongoPets = async (
  access: MongoAccess,
  collections: PetCollections,
  drafts: ReadonlyArray<PetDraft>,
): Promise<SeedOutcome> => {
  const bound = serverBound(access.timeoutMs)
  const counters = await collectionIn<CounterDocument>(access, collections.counters)
  const pets = await collectionIn<PetDocument>(access, collections.pets)
  const holdsPets = (await pets.findOne({}, { ...bound, projection: { _id: 1 } })) !== null
  const marked = holdsPets
    ? undefined
    : await upsertOnceMore(() =>
        counters.updateOne(counterFilter, { $setOnInsert: { next: drafts.length, seeding: true } }, { ...bound, upsert: true }),
      )
  const claimed = marked?.upsertedCount === 1
  if (!claimed && (await counters.findOne(counterFilter, bound))?.seeding !== true) return { kind: 'not-empty' }
  for (let first = 0; first < drafts.length; first += SEED_BATCH_SIZE) {
    const batch = drafts.slice(first, first + SEED_BATCH_SIZE).map((draft, index) => {
      const { _id, ...fields } = toDocument({ id: first + index + 1, ...draft })
      return { updateOne: { filter: { _id }, update: { $setOnInsert: fields }, upsert: true } }
    })
    await upsertOnceMore(() => pets.bulkWrite(batch, { ...bound, ordered: false }))
  }
  await counters.updateOne(counterFilter, seedDoneUpdate(drafts.length), bound)
  return { kind: claimed ? 'seeded' : 'finished', count: drafts.length }
}
