import type { PetDraft } from '../../src/domain/pet.js'
import type { SeedOutcome } from '../../src/ports/store.js'
import type { CounterDocument, PetCollections } from './mongo-pet-repository.js'
import { collectionIn, type MongoAccess, serverBound } from './mongo-options.js'
import { type PetDocument, toDocument } from './pet-document.js'
import { counterFilter, seedDoneUpdate } from './pet-queries.js'

/** The round trips of seedMongoPets: mark, read the mark, write the pets, lift the mark. */
export const SEED_ROUND_TRIPS = 4

/**
 * Seeds one data set exactly once, even when several instances start on it together. The id
 * counter decides: creating it (upsert) with `next` already past the seed and a `seeding` mark
 * claims the seed, so a create racing the seed gets id n+1. Whoever finds the mark (the claimer, an
 * instance that raced it, or the next start after a crash mid-seed) writes the seed's pets by their
 * fixed ids 1..n with $setOnInsert, which any number of writers can repeat without changing a pet,
 * then lifts the mark, raising `next` to the seed's size (a restart may bring a larger seed than
 * the one that set the mark). Only the claimer answers `seeded`; the others `finished`, so that one
 * instance says it seeded the store. A counter without the mark means pets were created: never seeded again.
 */
export const seedMongoPets = async (
  access: MongoAccess,
  collections: PetCollections,
  drafts: ReadonlyArray<PetDraft>,
): Promise<SeedOutcome> => {
  const bound = serverBound(access.timeoutMs)
  const counters = await collectionIn<CounterDocument>(access, collections.counters)
  const marked = await counters.updateOne(
    counterFilter,
    { $setOnInsert: { next: drafts.length, seeding: true } },
    { ...bound, upsert: true },
  )
  const counter = await counters.findOne(counterFilter, bound)
  if (counter?.seeding !== true) return { kind: 'not-empty' }
  if (drafts.length > 0) {
    const pets = await collectionIn<PetDocument>(access, collections.pets)
    await pets.bulkWrite(
      drafts.map((draft, index) => {
        const { _id, ...fields } = toDocument({ id: index + 1, ...draft })
        return { updateOne: { filter: { _id }, update: { $setOnInsert: fields }, upsert: true } }
      }),
      { ...bound, ordered: false },
    )
  }
  await counters.updateOne(counterFilter, seedDoneUpdate(drafts.length), bound)
  return { kind: marked.upsertedCount === 1 ? 'seeded' : 'finished', count: drafts.length }
}
