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
import { fromStored, toStoreUnavailable } from './store-error.js'

interface CounterDocument {
  readonly _id: string
  readonly next: number
}

export interface MongoPetRepositoryOptions {
  /** The database, connecting first when needed; a rejection becomes StoreUnavailable. */
  readonly database: () => Promise<Db>
  /** Acknowledgement required before a create is answered; `majority` by default. */
  readonly writeConcern?: WriteConcernSettings
}

/** Creates the indexes list and get need; createIndex is idempotent, so every start may call it. */
export const ensurePetIndexes = async (db: Db): Promise<void> => {
  await db.collection(PETS_COLLECTION).createIndex(STATUS_INDEX.key, { name: STATUS_INDEX.name })
}

const decodeAll = (documents: ReadonlyArray<unknown>): E.Either<string, ReadonlyArray<Pet>> =>
  E.traverseArray(fromDocument)(documents)

/**
 * The PetRepository port over a MongoDB database. Ids come from one counter document advanced
 * atomically ($inc in findOneAndUpdate, upserted), so any number of instances sharing the database
 * never hand out the same id. Every driver call is wrapped in TE.tryCatch: failures become
 * StoreUnavailable, never exceptions.
 */
export const mongoPetRepository = ({ database, writeConcern = { w: 'majority' } }: MongoPetRepositoryOptions): PetRepository => {
  const pets = async () => (await database()).collection<PetDocument>(PETS_COLLECTION, { writeConcern })
  const counters = async () => (await database()).collection<CounterDocument>(COUNTERS_COLLECTION, { writeConcern })

  const allocateId = TE.tryCatch(async () => {
    const counter = await (await counters()).findOneAndUpdate(counterFilter, counterUpdate(1), { upsert: true, returnDocument: 'after' })
    if (counter === null) throw new Error('the id counter was not returned')
    return counter.next
  }, toStoreUnavailable('allocate pet id'))

  return {
    insert: (draft) =>
      pipe(
        allocateId,
        TE.map((id): Pet => ({ id, ...draft })),
        TE.tap((pet) => TE.tryCatch(async () => (await pets()).insertOne(toDocument(pet)), toStoreUnavailable('insert pet'))),
      ),
    findById: (id) =>
      pipe(
        TE.tryCatch(async () => (await pets()).findOne(byIdFilter(id), { projection: PET_PROJECTION }), toStoreUnavailable('find pet')),
        TE.flatMap((document) =>
          document === null ? TE.right(O.none) : pipe(fromStored(fromDocument(document)), TE.map(O.some)),
        ),
      ),
    list: (query) =>
      pipe(
        TE.tryCatch(
          async () => (await pets()).find(listFilter(query), { projection: PET_PROJECTION }).sort(ID_ORDER).limit(query.limit).toArray(),
          toStoreUnavailable('list pets'),
        ),
        TE.flatMap((documents) => fromStored(decodeAll(documents))),
      ),
    ready: () =>
      TE.tryCatch(async () => {
        const db = await database()
        await db.command({ ping: 1 })
        await ensurePetIndexes(db)
      }, toStoreUnavailable('ping')),
  }
}
