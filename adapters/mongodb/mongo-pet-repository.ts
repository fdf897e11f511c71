import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as O from 'fp-ts/Option'
import * as TE from 'fp-ts/TaskEither'
import type { Pet, PetDraft } from '../../src/domain/pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { fromDocument, type PetDocument, toDocument } from './pet-document.js'
import {
  byIdFilter,
  COUNTERS_COLLECTION,
  counterFilter,
  counterUpdate,
  ID_ORDER,
  listFilter,
  PET_PROJECTION,
  PETS_COLLECTION,
} from './pet-queries.js'
import { mongoCall } from './mongo-call.js'
import { accessOf, collectionIn, type MongoAdapterOptions, serverBound } from './mongo-options.js'
import { fromStored, isDuplicateKey } from './store-error.js'

export interface CounterDocument {
  readonly _id: string
  /** The last id handed out. */
  readonly next: number
  /** Present while a seed is being written (see mongo-seed.ts). */
  readonly seeding?: true
}

/** Where a data set's pets and id counter live. */
export interface PetCollections {
  readonly pets: string
  readonly counters: string
}

export const SHARED_PET_COLLECTIONS: PetCollections = { pets: PETS_COLLECTION, counters: COUNTERS_COLLECTION }

/**
 * The PetRepository port over a MongoDB database. Ids come from one counter document advanced
 * atomically ($inc in findOneAndUpdate, upserted), so instances sharing the database never hand out
 * the same id.
 */
export const mongoPetRepository = (options: MongoAdapterOptions): PetRepository => {
  const access = accessOf(options)
  const bound = serverBound(access.timeoutMs)

  /**
   * The id is taken, then the pet stored: two awaits. Another create (of any instance, this one
   * included) can take the next id and store its pet in between, and a list then can page past
   * this id before this pet is stored: a walk can miss a pet created during it. Pets that existed
   * when the walk began are each seen once. Under a create id that a pet holds already, the insert
   * meets CREATE_ID_INDEX and that pet is answered (the id just taken stays unused). A failed
   * insert may have stored its pet all the same; the create id, not this call, makes its retry safe.
   */
  const insert = async (draft: PetDraft, createId: string | undefined): Promise<E.Either<string, Pet>> => {
    const counters = await collectionIn<CounterDocument>(access, COUNTERS_COLLECTION)
    const counter = await counters.findOneAndUpdate(counterFilter, counterUpdate(1), { ...bound, upsert: true, returnDocument: 'after' })
    if (counter === null) throw new Error('the id counter was not returned')
    const pet: Pet = { id: counter.next, ...draft }
    const pets = await collectionIn<PetDocument>(access, PETS_COLLECTION)
    try {
      await pets.insertOne({ ...toDocument(pet), ...(createId === undefined ? {} : { createId }) }, bound)
      return E.right(pet)
    } catch (error) {
      const earlier =
        createId !== undefined && isDuplicateKey(error) ? await pets.findOne({ createId }, { ...bound, projection: PET_PROJECTION }) : null
      if (earlier !== null) return fromDocument(earlier)
      throw error
    }
  }

  return {
    insert: (draft, createId) =>
      pipe(
        mongoCall(access, 'insert pet', () => insert(draft, createId), 3),
        TE.flatMap(fromStored),
      ),
    findById: (id) =>
      pipe(
        mongoCall(access, 'find pet', async () =>
          (await collectionIn<PetDocument>(access, PETS_COLLECTION)).findOne(byIdFilter(id), { ...bound, projection: PET_PROJECTION }),
        ),
        TE.flatMap((document) => (document === null ? TE.right(O.none) : pipe(fromStored(fromDocument(document)), TE.map(O.some)))),
      ),
    list: (query) =>
      pipe(
        mongoCall(access, 'list pets', async () =>
          (await collectionIn<PetDocument>(access, PETS_COLLECTION))
            .find(listFilter(query), { ...bound, projection: PET_PROJECTION })
            .sort(ID_ORDER)
            .limit(query.limit)
            .toArray(),
        ),
        TE.flatMap((documents) => fromStored(E.traverseArray(fromDocument)(documents))),
      ),
  }
}
