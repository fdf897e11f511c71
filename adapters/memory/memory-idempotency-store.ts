import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/Either'
import * as TE from 'fp-ts/TaskEither'
import { realClock } from '../../src/domain/clock.js'
import { storeFailed, type StoreFull, storeFull } from '../../src/domain/errors.js'
import {
  DEFAULT_LEASE_MS,
  DEFAULT_RECORD_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyStore,
  type IdempotencyTimes,
} from '../../src/domain/idempotency-store.js'
import type { Pet } from '../../src/domain/pet.js'
import { type Meter, textBytes } from '../../src/store/meter.js'

/**
 * A record, always written whole as one object literal of these six fields in this order, `pet`
 * undefined until completed, never by spreading an earlier one: on Node 20 (V8 11.3) an object
 * spread followed by other fields gives nearly every object a hidden class of its own, which a
 * record would keep for its whole lifetime (docs/performance.md has the figures).
 */
interface MemoryRecord {
  readonly token: string
  readonly fingerprint: string
  readonly createId: string
  readonly pet: Pet | undefined
  /** Until when a claim in progress holds the scope. */
  readonly leaseEndsAt: number
  /** When the record is forgotten: a record lifetime after it was last written. */
  readonly expiresAt: number
}

/** The estimate of a record, beside its strings: the record, its entry in the map, and the pet it may answer (whose name the pets hold). */
const RECORD_BYTES = 1792

/** What a record costs a budget, from its claim on: its pet, once completed, is counted in RECORD_BYTES. */
const bytesOf = (scope: string, { token, fingerprint, createId }: MemoryRecord): number =>
  RECORD_BYTES + textBytes(scope) + textBytes(token) + textBytes(fingerprint) + textBytes(createId)

/**
 * A new random id, as one flat string. Node's randomUUID builds its 36 characters by concatenation,
 * a tree of pieces that stays a tree while a record keeps it; `normalize()`, which leaves these
 * characters as they are, returns them as one string.
 */
const newId = (): string => randomUUID().normalize()

/**
 * The IdempotencyStore port over process memory: per instance, lost on restart. Records live in a
 * Map in the order they were last written, each forgotten a record lifetime after that, so the
 * expired ones are at its front and are dropped as claims arrive: memory stays bounded by the
 * traffic of one record lifetime. A claim whose lease is over is kept until then for its create id.
 *
 * With a `budget` (a bounded data set's), each record is charged to it while it is kept, at its final size
 * from its claim on, so that completing a claim never needs room: a claim it has no room for
 * records nothing and fails with StoreFull.
 */
export const memoryIdempotencyStore = ({
  recordTtlMs = DEFAULT_RECORD_TTL_MS,
  leaseMs = DEFAULT_LEASE_MS,
  clock = realClock,
  budget,
}: IdempotencyTimes & { readonly budget?: Meter } = {}): IdempotencyStore => {
  const records = new Map<string, MemoryRecord>()

  const write = (scope: string, record: MemoryRecord): void => {
    records.delete(scope)
    records.set(scope, record)
  }

  const sweep = (time: number): void => {
    for (const [scope, record] of records) {
      if (record.expiresAt > time) return
      records.delete(scope)
      budget?.release(bytesOf(scope, record))
    }
  }

  const claim = (scope: string, fingerprint: string): E.Either<StoreFull, IdempotencyClaim> => {
    const time = clock.now()
    sweep(time)
    const record = records.get(scope)
    if (record?.pet !== undefined) return E.right({ kind: 'completed', fingerprint: record.fingerprint, pet: record.pet })
    // Another body never takes over a lapsed claim: the pet its create id may have stored is the first body's.
    if (record !== undefined && (record.leaseEndsAt > time || record.fingerprint !== fingerprint)) {
      return E.right({ kind: 'in_progress', fingerprint: record.fingerprint })
    }
    const token = newId()
    const createId = record?.createId ?? newId()
    const claimed: MemoryRecord = {
      token,
      fingerprint,
      createId,
      pet: undefined,
      leaseEndsAt: time + leaseMs,
      expiresAt: time + recordTtlMs,
    }
    // A claim taken over replaces a record of the same size, already charged.
    if (record === undefined && budget !== undefined && !budget.charge(bytesOf(scope, claimed))) {
      return E.left(storeFull(budget.limit))
    }
    write(scope, claimed)
    return E.right({ kind: 'claimed', token, createId })
  }

  /** The record while `token` holds its claim (not taken over, not expired and swept). */
  const heldBy = (scope: string, token: string): MemoryRecord | undefined => {
    const record = records.get(scope)
    return record?.token === token ? record : undefined
  }

  // Each task reads or writes when it is run, as the port asks, not when it is made.
  return {
    claim: (scope, fingerprint) => TE.fromIOEither(() => claim(scope, fingerprint)),
    // Whoever holds the create id's claim now: a request that was taken over stored the same pet.
    complete: (scope, createId, fingerprint, pet) =>
      TE.fromIOEither(() => {
        const record = records.get(scope)
        return record?.createId === createId
          ? E.right(
              write(scope, {
                token: record.token,
                fingerprint,
                createId: record.createId,
                pet,
                leaseEndsAt: record.leaseEndsAt,
                expiresAt: clock.now() + recordTtlMs,
              }),
            )
          : E.left(storeFailed(`complete idempotency key: the record expired before pet ${pet.id} was recorded`))
      }),
    // Like every adapter, only the holder's claim still in progress ends its lease; a completed record
    // stays. Dated the epoch, as on MongoDB: over by any clock, even the real one stepped back. Set in
    // place, not written: its expiry, and so its place in the Map, do not change.
    endLease: (scope, token) =>
      TE.rightIO(() => {
        const record = heldBy(scope, token)
        if (record === undefined || record.pet !== undefined) return
        records.set(scope, {
          token: record.token,
          fingerprint: record.fingerprint,
          createId: record.createId,
          pet: undefined,
          leaseEndsAt: 0,
          expiresAt: record.expiresAt,
        })
      }),
  }
}
