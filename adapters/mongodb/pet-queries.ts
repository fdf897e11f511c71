import type { PetListQuery } from '../../src/domain/pet-repository.js'

/** The documents sent to MongoDB, built from validated domain values only (ADR 1007). */

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

export const PET_PROJECTION = { _id: 1, name: 1, categoryId: 1, status: 1 } as const

/** Keyset paging: ids above `after`, optionally one status, in id order; never `skip`. */
export const listFilter = (query: PetListQuery) => ({
  ...(query.status === undefined ? {} : { status: query.status }),
  ...(query.after === undefined ? {} : { _id: { $gt: query.after } }),
})

/** The counter document that hands out pet ids, advanced by `$inc` (ADR 1001). */
export const counterFilter = { _id: 'pets' } as const

/** Ends a seed of `count` pets: lifts its mark, and raises `next` to at least `count` (a seed resumed with a larger file). */
export const seedDoneUpdate = (count: number) => ({ $unset: { seeding: '' }, $max: { next: count } }) as const
