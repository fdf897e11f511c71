import * as TE from 'fp-ts/TaskEither'
import type { Db, WriteConcernSettings } from 'mongodb'
import type { StoreError } from '../../src/domain/errors.js'
import type { IdempotencyTimes } from '../../src/domain/idempotency-store.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { SandboxSpace, StorePorts } from '../../src/domain/store.js'
import { ensureIdempotencyIndexes, mongoIdempotencyStore } from './mongo-idempotency-store.js'
import { ensurePetIndexes, mongoPetRepository, type PetCollections } from './mongo-pet-repository.js'
import { seedMongoPets } from './mongo-seed.js'
import { toStoreError } from './store-error.js'

/** One document per sandbox that has been reset: which generation of its collections is current. */
export const SANDBOXES_COLLECTION = 'sandboxes'

interface SandboxDocument {
  readonly _id: string
  readonly generation: number
}

/** The collections of one generation of one sandbox; a reset moves the sandbox to fresh ones. */
export const sandboxCollections = (sandbox: string, generation: number): PetCollections & { readonly idempotency: string } => {
  const prefix = `sandbox.${sandbox}.${generation}`
  return { pets: `${prefix}.pets`, counters: `${prefix}.counters`, idempotency: `${prefix}.idempotency_keys` }
}

/** Of one sandbox's collection names, those of generations before `current`. */
export const staleCollections = (names: ReadonlyArray<string>, sandbox: string, current: number): ReadonlyArray<string> =>
  names.filter((name) => {
    const generation = name.startsWith(`sandbox.${sandbox}.`) ? Number(name.split('.')[2]) : NaN
    return Number.isInteger(generation) && generation < current
  })

export interface MongoSandboxesOptions extends IdempotencyTimes {
  readonly database: () => Promise<Db>
  readonly writeConcern: WriteConcernSettings
  readonly seed: ReadonlyArray<PetDraft>
}

/**
 * Per-key sandboxes on MongoDB. A sandbox's pets, id counter and idempotency records live in
 * collections of their own, named `sandbox.<sandbox>.<generation>.{pets,counters,idempotency_keys}`,
 * with the same indexes and documents as the shared collections, so every query is the shared one
 * on another collection. Reset advances the sandbox's generation in `sandboxes` (one atomic $inc):
 * from then on requests use fresh collections, seeded exactly once, and the old ones are dropped.
 * Each request reads its sandbox's generation once (one find by _id) and uses those collections
 * to its end.
 */
export const mongoSandboxes = ({ database, writeConcern, seed, ...times }: MongoSandboxesOptions): SandboxSpace => {
  // Each generation is prepared (indexes, seed) once per instance; a failure is forgotten, to retry.
  const prepared = new Map<string, Promise<StorePorts>>()

  const prepare = async (db: Db, sandbox: string, generation: number): Promise<StorePorts> => {
    const collections = sandboxCollections(sandbox, generation)
    await ensurePetIndexes(db, collections.pets)
    await ensureIdempotencyIndexes(db, collections.idempotency)
    await seedMongoPets(db, collections, seed, writeConcern)
    return {
      pets: mongoPetRepository({ database, writeConcern, collections }),
      idempotency: mongoIdempotencyStore({ database, writeConcern, collection: collections.idempotency, ...times }),
    }
  }

  const portsOf = (db: Db, sandbox: string, generation: number): Promise<StorePorts> => {
    const key = `${sandbox}.${generation}`
    const cached = prepared.get(key)
    if (cached !== undefined) return cached
    // A newer generation (reset here or by another instance) retires the older ones.
    for (const old of prepared.keys()) if (old.startsWith(`${sandbox}.`)) prepared.delete(old)
    const ports = prepare(db, sandbox, generation).catch((error: unknown) => {
      prepared.delete(key)
      throw error
    })
    prepared.set(key, ports)
    return ports
  }

  const sandboxes = (db: Db) => db.collection<SandboxDocument>(SANDBOXES_COLLECTION, { writeConcern })

  return {
    open: (sandbox: string): TE.TaskEither<StoreError, StorePorts> =>
      TE.tryCatch(async () => {
        const db = await database()
        const current = await sandboxes(db).findOne({ _id: sandbox })
        return portsOf(db, sandbox, current?.generation ?? 0)
      }, toStoreError('open sandbox')),
    reset: (sandbox: string): TE.TaskEither<StoreError, void> =>
      TE.tryCatch(async () => {
        const db = await database()
        const next = await sandboxes(db).findOneAndUpdate(
          { _id: sandbox },
          { $inc: { generation: 1 } },
          { upsert: true, returnDocument: 'after' },
        )
        const generation = next?.generation ?? 1
        await portsOf(db, sandbox, generation)
        // Also drops what a request still in flight wrote into an old generation after an earlier drop.
        const own = await db.listCollections({ name: { $regex: `^sandbox\\.${sandbox}\\.` } }, { nameOnly: true }).toArray()
        await Promise.all(
          staleCollections(
            own.map((collection) => collection.name),
            sandbox,
            generation,
          ).map((name) => db.dropCollection(name)),
        )
      }, toStoreError('reset sandbox')),
  }
}
