import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as O from 'fp-ts/Option'
import * as TE from 'fp-ts/TaskEither'
import { MongoServerError } from 'mongodb'
import type { Pet, PetDraft } from '../../src/domain/pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import { fromStored, mongoCall } from './mongo-call.js'
import { collectionIn, type MongoAccess, serverBound, upsertAfter } from './mongo-options.js'
import { fromDocument, type PetDocument, toDocument } from './pet-document.js'
import { COUNTERS_COLLECTION, counterFilter, listFilter, PET_PROJECTION, PETS_COLLECTION } from './pet-queries.js'

export interface CounterDocument {
  readonly _id: string
  /** The last id handed out. */
  readonly next: number
  /** Present while a seed is being written (see mongo-seed.ts). */
  readonly seeding?: true
}

/** The PetRepository port over a MongoDB database; ids come from one counter document (ADR 1001). */
export const mongoPetRepository = (access: MongoAccess): PetRepository => {
  const bound = serverBound(access.timeoutMs)
  const read = { ...bound, projection: PET_PROJECTION }
  const pets = () => collectionIn<PetDocument>(access, PETS_COLLECTION)

  /** The id is taken, then the pet stored (ADR 1001); a create id a pet holds already meets createId_1 (E11000): that pet is answered. */
  const insert = async (draft: PetDraft, createId: string | undefined): Promise<E.Either<string, Pet>> => {
    const counters = await collectionIn<CounterDocument>(access, COUNTERS_COLLECTION)
    const counter = await counters.findOneAndUpdate(counterFilter, { $inc: { next: 1 } }, upsertAfter(access.timeoutMs))
    if (counter === null) throw new Error('the id counter was not returned')
    const pet: Pet = { id: counter.next, ...draft }
    try {
      await (await pets()).insertOne({ ...toDocument(pet), ...(createId === undefined ? {} : { createId }) }, bound)
      return E.right(pet)
    } catch (error) {
      const duplicate = createId !== undefined && error instanceof MongoServerError && Number(error.code) === 11000
      const earlier = duplicate ? await (await pets()).findOne({ createId }, read) : null
      if (earlier !== null) return fromDocument(earlier)
      throw error
    }
  }

  /** A call whose documents are decoded: one that is no pet fails it (ADR 1007). */
  const decoded = <A>(operation: string, work: () => Promise<E.Either<string, A>>, roundTrips = 1) =>
    pipe(mongoCall(access, operation, work, roundTrips), TE.flatMap(fromStored))
  return {
    insert: (draft, createId) => decoded('insert pet', () => insert(draft, createId), 3),
    findById: (id) =>
      decoded('find pet', async () => {
        const document = await (await pets()).findOne({ _id: id }, read)
        return document === null ? E.right(O.none) : pipe(fromDocument(document), E.map(O.some))
      }),
    list: (query) =>
      decoded('list pets', async () => {
        const documents = await (await pets()).find(listFilter(query), { ...read, sort: { _id: 1 }, limit: query.limit }).toArray()
        return E.traverseArray(fromDocument)(documents)
      }),
  }
}
