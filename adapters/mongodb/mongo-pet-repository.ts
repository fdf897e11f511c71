import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as O from 'fp-ts/Option'
import * as TE from 'fp-ts/TaskEither'
import type { Db, WriteConcernSettings } from 'mongodb'
import type { Pet } from '../../src/domain/pet.js'
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
  STATUS_INDEX,
} from './pet-queries.js'
import { fromStored, toStoreError } from './store-error.js'

export interface CounterDocument {
  readonly _id: string
  /** The last id handed out. */
  readonly next: number
  /** Present while a seed is being written (see mongo-seed.ts). */
  readonly seeding?: true
}

/** Where one data set's pets and id counter live: everyone's, or one sandbox's. */
export interface PetCollections {
  readonly pets: string
  readonly counters: string
}

export const SHARED_PET_COLLECTIONS: PetCollections = { pets: PETS_COLLECTION, counters: COUNTERS_COLLECTION }

export interface MongoPetRepositoryOptions {
  /** The database, connecting first when needed; a rejection becomes a StoreError. */
  readonly database: () => Promise<Db>
  /** Acknowledgement required before a create is answered; `majority` by default. */
  readonly writeConcern?: WriteConcernSettings
  /** The shared collections (`pets`, `counters`) unless a sandbox's are given. */
  readonly collections?: PetCollections
}

/** Creates the indexes list and get need; createIndex is idempotent, so every start may call it. */
export const ensurePetIndexes = async (db: Db, pets: string = PETS_COLLECTION): Promise<void> => {
  await db.collection(pets).createIndex(STATUS_INDEX.key, { name: STATUS_INDEX.name })
}

const decodeAll = (documents: ReadonlyArray<unknown>): E.Either<string, ReadonlyArray<Pet>> => E.traverseArray(fromDocument)(documents)

/**
 * The PetRepository port over a MongoDB database. Ids come from one counter document advanced
 * atomically ($inc in findOneAndUpdate, upserted), so any number of instances sharing the database
 * never hand out the same id. Every driver call is wrapped in TE.tryCatch: failures become
 * a StoreError (see store-error.ts), never exceptions.
 */
export const mongoPetRepository = ({
  database,
  writeConcern = { w: 'majority' },
  collections = SHARED_PET_COLLECTIONS,
}: MongoPetRepositoryOptions): PetRepository => {
  const pets = async () => (await database()).collection<PetDocument>(collections.pets, { writeConcern })
  const counters = async () => (await database()).collection<CounterDocument>(collections.counters, { writeConcern })

  const allocateId = TE.tryCatch(async () => {
    const counter = await (await counters()).findOneAndUpdate(counterFilter, counterUpdate(1), { upsert: true, returnDocument: 'after' })
    if (counter === null) throw new Error('the id counter was not returned')
    return counter.next
  }, toStoreError('allocate pet id'))

  return {
    insert: (draft) =>
      pipe(
        allocateId,
        TE.map((id): Pet => ({ id, ...draft })),
        TE.tap((pet) => TE.tryCatch(async () => (await pets()).insertOne(toDocument(pet)), toStoreError('insert pet'))),
      ),
    findById: (id) =>
      pipe(
        TE.tryCatch(async () => (await pets()).findOne(byIdFilter(id), { projection: PET_PROJECTION }), toStoreError('find pet')),
        TE.flatMap((document) => (document === null ? TE.right(O.none) : pipe(fromStored(fromDocument(document)), TE.map(O.some)))),
      ),
    list: (query) =>
      pipe(
        TE.tryCatch(
          async () => (await pets()).find(listFilter(query), { projection: PET_PROJECTION }).sort(ID_ORDER).limit(query.limit).toArray(),
          toStoreError('list pets'),
        ),
        TE.flatMap((documents) => fromStored(decodeAll(documents))),
      ),
  }
}
