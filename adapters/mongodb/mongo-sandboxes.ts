import type * as TE from 'fp-ts/TaskEither'
import type { Db, WriteConcernSettings } from 'mongodb'
import type { StoreError } from '../../src/domain/errors.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { SandboxSpace, StorePorts } from '../../src/domain/store.js'
import { ensureIdempotencyIndexes, type MongoIdempotencyTimes, mongoIdempotencyStore } from './mongo-idempotency-store.js'
import { mongoCall } from './mongo-call.js'
import { collectionIn, DEFAULT_TIMEOUT_MS, type MongoAccess, serverBound } from './mongo-options.js'
import { ensurePetIndexes, mongoPetRepository, type PetCollections } from './mongo-pet-repository.js'
import { SEED_ROUND_TRIPS, seedMongoPets } from './mongo-seed.js'

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

export interface MongoSandboxesOptions extends MongoIdempotencyTimes {
  readonly database: () => Promise<Db>
  readonly writeConcern: WriteConcernSettings
  /** The bound on each round trip (PETSTORE_MONGODB_TIMEOUT_MS); 2 s by default. */
  readonly timeoutMs?: number
  readonly seed: ReadonlyArray<PetDraft>
}

/** Round trips of preparing a generation: two indexes and the seed. */
const PREPARE_ROUND_TRIPS = 2 + SEED_ROUND_TRIPS

/**
 * Per-key sandboxes on MongoDB. A sandbox's pets, id counter and idempotency records live in
 * collections of their own, named `sandbox.<sandbox>.<generation>.{pets,counters,idempotency_keys}`,
 * with the same indexes and documents as the shared collections, so every query is the shared one
 * on another collection. Reset advances the sandbox's generation in `sandboxes` (one atomic $inc):
 * from then on requests use fresh collections, seeded exactly once, and the old ones are dropped.
 * Each request reads its sandbox's generation once (one find by _id) and uses those collections
 * to its end. Its ports are the shared ones' adapters on these collections, so they read from the
 * primary and are bounded in time like them.
 */
export const mongoSandboxes = ({
  database,
  writeConcern,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  seed,
  ...times
}: MongoSandboxesOptions): SandboxSpace => {
  const access: MongoAccess = { database, writeConcern, timeoutMs }
  const bound = serverBound(timeoutMs)
  // Each generation is prepared (indexes, seed) once per instance; a failure is forgotten, to retry.
  const prepared = new Map<string, Promise<StorePorts>>()

  const prepare = async (db: Db, sandbox: string, generation: number): Promise<StorePorts> => {
    const collections = sandboxCollections(sandbox, generation)
    await ensurePetIndexes(db, collections.pets)
    await ensureIdempotencyIndexes(db, collections.idempotency)
    await seedMongoPets(access, collections, seed)
    return {
      pets: mongoPetRepository({ database, writeConcern, timeoutMs, collections }),
      idempotency: mongoIdempotencyStore({ database, writeConcern, timeoutMs, collection: collections.idempotency, ...times }),
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

  const sandboxes = () => collectionIn<SandboxDocument>(access, SANDBOXES_COLLECTION)

  return {
    open: (sandbox: string): TE.TaskEither<StoreError, StorePorts> =>
      mongoCall(
        access,
        'open sandbox',
        async () => {
          const current = await (await sandboxes()).findOne({ _id: sandbox }, bound)
          return portsOf(await database(), sandbox, current?.generation ?? 0)
        },
        1 + PREPARE_ROUND_TRIPS,
      ),
    reset: (sandbox: string): TE.TaskEither<StoreError, void> =>
      mongoCall(
        access,
        'reset sandbox',
        async () => {
          const next = await (
            await sandboxes()
          ).findOneAndUpdate({ _id: sandbox }, { $inc: { generation: 1 } }, { ...bound, upsert: true, returnDocument: 'after' })
          const generation = next?.generation ?? 1
          const db = await database()
          await portsOf(db, sandbox, generation)
          // Also drops what a request still in flight wrote into an old generation after an earlier drop.
          const own = await db
            .listCollections({ name: { $regex: `^sandbox\\.${sandbox}\\.` } }, { nameOnly: true, readPreference: 'primary' })
            .toArray()
          await Promise.all(
            staleCollections(
              own.map((collection) => collection.name),
              sandbox,
              generation,
            ).map((name) => db.dropCollection(name)),
          )
        },
        // The generation, its preparation, the listing, and the drops (all at once).
        1 + PREPARE_ROUND_TRIPS + 2,
      ),
  }
}
