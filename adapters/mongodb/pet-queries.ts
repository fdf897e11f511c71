import type { PetId } from '../../src/domain/pet.js'
import type { PetListQuery } from '../../src/domain/pet-repository.js'

/**
 * Every document sent to MongoDB is built here, from validated domain values only: a number id, a
 * PetStatus, a limit. Nothing from a request reaches a query as it came, so no operator can be smuggled in.
 */

export const PETS_COLLECTION = 'pets'
export const COUNTERS_COLLECTION = 'counters'

/** Serves listing by status in id order; listing without status and get use the `_id` index. */
export const STATUS_INDEX = { key: { status: 1, _id: 1 }, name: 'status_1__id_1' } as const

/** One pet per create id: a second insert under it meets this index, and the first pet is answered. */
export const CREATE_ID_INDEX = {
  key: { createId: 1 },
  name: 'createId_1',
  unique: true,
  partialFilterExpression: { createId: { $exists: true } },
} as const

export const ID_ORDER = { _id: 1 } as const

export const PET_PROJECTION = { _id: 1, name: 1, categoryId: 1, status: 1 } as const

export const byIdFilter = (id: PetId): { _id: number } => ({ _id: id })

/** Keyset paging: ids above `after`, optionally one status; never `skip`. */
export const listFilter = (query: PetListQuery) => ({
  ...(query.status === undefined ? {} : { status: query.status }),
  ...(query.after === undefined ? {} : { _id: { $gt: query.after } }),
})

/** The counter document that hands out pet ids. */
export const counterFilter = { _id: 'pets' } as const

/**
 * Ends a seed of `count` pets: lifts the `seeding` mark, and raises `next` to at least `count`, so
 * that a seed resumed with a larger file than the one that set the mark (pets 1..count now exist)
 * never hands out an id it holds.
 */
export const seedDoneUpdate = (count: number): { $unset: { seeding: '' }; $max: { next: number } } => ({
  $unset: { seeding: '' },
  $max: { next: count },
})

/** Advances the counter by `count` ids; the upsert creates it on first use. */
export const counterUpdate = (count: number): { $inc: { next: number } } => ({ $inc: { next: count } })
