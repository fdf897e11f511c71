import type { Db, WriteConcernSettings } from 'mongodb'
import type { PetDraft } from '../../src/domain/pet.js'
import type { SeedOutcome } from '../../src/domain/store.js'
import type { CounterDocument, PetCollections } from './mongo-pet-repository.js'
import { type PetDocument, toDocument } from './pet-document.js'
import { counterFilter } from './pet-queries.js'

/**
 * Seeds one data set exactly once, even when several instances start on it together. The id
 * counter decides: creating it (upsert) with `next` already past the seed and a `seeding` mark
 * claims the seed, so a create racing the seed gets id n+1. Whoever finds the mark (the claimer, an
 * instance that raced it, or the next start after a crash mid-seed) writes the seed's pets by their
 * fixed ids 1..n with $setOnInsert, which any number of writers can repeat without changing a pet,
 * then lifts the mark. A counter without the mark means pets were created: never seeded again.
 */
export const seedMongoPets = async (
  db: Db,
  collections: PetCollections,
  drafts: ReadonlyArray<PetDraft>,
  writeConcern: WriteConcernSettings,
): Promise<SeedOutcome> => {
  const counters = db.collection<CounterDocument>(collections.counters, { writeConcern })
  await counters.updateOne(counterFilter, { $setOnInsert: { next: drafts.length, seeding: true } }, { upsert: true })
  const counter = await counters.findOne(counterFilter)
  if (counter?.seeding !== true) return { kind: 'not-empty' }
  if (drafts.length > 0) {
    const pets = db.collection<PetDocument>(collections.pets, { writeConcern })
    await pets.bulkWrite(
      drafts.map((draft, index) => {
        const { _id, ...fields } = toDocument({ id: index + 1, ...draft })
        return { updateOne: { filter: { _id }, update: { $setOnInsert: fields }, upsert: true } }
      }),
      { ordered: false },
    )
  }
  await counters.updateOne(counterFilter, { $unset: { seeding: '' } })
  return { kind: 'seeded', count: drafts.length }
}
