import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import * as TE from 'fp-ts/TaskEither'
import { storeFull } from '../../src/domain/errors.js'
import type { Pet, PetDraft, PetId, PetStatus } from '../../src/domain/pet.js'
import type { PetListQuery, PetRepository } from '../../src/domain/pet-repository.js'
import { type Meter, textBytes } from '../../src/store/meter.js'
import { type Column, column } from './column.js'

/** The estimate of a created pet, beside its name: its slots in the columns and its id's in its status's list. */
const PET_BYTES = 96
/** The estimate of a create id remembered, beside its characters: its entry in the map. */
const CREATE_ID_BYTES = 160

/** Index of the first id above `after` in ascending `ids`, by binary search. */
const firstAfter = (ids: Column<PetId>, after: PetId): number => {
  let low = 0
  let high = ids.size()
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((ids.at(middle) ?? Infinity) <= after) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * The PetRepository port over process memory. Ids come from a counter, so they only grow and have
 * no gaps: the pet with id n is at index n - 1 of three columns (names, categories, statuses), and
 * each status keeps the ascending ids of its pets. A page is a binary search plus a loop,
 * O(log n + limit), and a Pet object is made only for a pet that is read. Columns rather than one
 * frozen object per pet: a million pets take about half the heap (an object costs more than the
 * three slots it would hold); columns in chunks that are never copied (column.ts).
 * Pets never change status (no operation changes one), so the id lists stay valid.
 * Everything is lost when the process ends, and ids restart at 1. `seed` is inserted first, in
 * order, so its pets get ids 1..n.
 *
 * With a `budget` (a bounded data set's), each pet created after the seed is charged to it, and an insert it
 * has no room for stores nothing and fails with StoreFull.
 */
export const memoryPetRepository = (seed: ReadonlyArray<PetDraft> = [], budget?: Meter): PetRepository => {
  const names = column<string>()
  const categoryIds = column<number>()
  const statuses = column<PetStatus>()
  const idsByStatus: Record<PetStatus, Column<PetId>> = { available: column(), pending: column(), sold: column() }
  /** The id of the pet inserted under each create id: an insert here never fails, but the port promises it. */
  const byCreateId = new Map<string, PetId>()

  /**
   * The pet with `id`, which must be one of 1..names.size(): a new object for each read, so nobody
   * shares one and there is nothing to freeze.
   */
  const petOf = (id: PetId): Pet => ({
    id,
    name: names.at(id - 1) ?? '',
    categoryId: categoryIds.at(id - 1) ?? 0,
    status: statuses.at(id - 1) ?? 'available',
  })

  const insert = (draft: PetDraft, createId?: string): Pet => {
    const earlier = createId === undefined ? undefined : byCreateId.get(createId)
    if (earlier !== undefined) return petOf(earlier)
    names.append(draft.name)
    categoryIds.append(draft.categoryId)
    statuses.append(draft.status)
    const id = names.size()
    idsByStatus[draft.status].append(id)
    if (createId !== undefined) byCreateId.set(createId, id)
    return petOf(id)
  }

  for (const draft of seed) insert(draft)

  /** What a new pet costs the budget: its slots, its name and its create id. */
  const bytesOf = (draft: PetDraft, createId?: string): number =>
    PET_BYTES + textBytes(draft.name) + (createId === undefined ? 0 : CREATE_ID_BYTES + textBytes(createId))

  const list = (query: PetListQuery): ReadonlyArray<Pet> => {
    const after = query.after ?? 0
    if (query.status === undefined) {
      // Ids have no gaps: the first id above `after` is at index `after`.
      const start = Math.min(Math.max(after, 0), names.size())
      const end = Math.min(start + query.limit, names.size())
      // A loop rather than Array.from({ length }, ...): docs/performance.md has both figures.
      const page: Pet[] = []
      for (let id = start + 1; id <= end; id += 1) page.push(petOf(id))
      return page
    }
    const ids = idsByStatus[query.status]
    const start = firstAfter(ids, after)
    const end = Math.min(start + query.limit, ids.size())
    const page: Pet[] = []
    for (let index = start; index < end; index += 1) {
      const id = ids.at(index)
      if (id !== undefined) page.push(petOf(id))
    }
    return page
  }

  // Each task reads or writes when it is run, as the port asks, not when it is made.
  return {
    insert: (draft, createId) =>
      TE.fromIOEither(() => {
        // An insert under a create id already used stores nothing: it costs nothing.
        const adds = createId === undefined || !byCreateId.has(createId)
        if (budget === undefined || !adds || budget.charge(bytesOf(draft, createId))) return E.right(insert(draft, createId))
        return E.left(storeFull(budget.limit))
      }),
    // The port's ids are safe integers; one outside 1..n names no pet.
    findById: (id) => TE.rightIO(() => (id >= 1 && id <= names.size() ? O.some(petOf(id)) : O.none)),
    list: (query) => TE.rightIO(() => list(query)),
  }
}
