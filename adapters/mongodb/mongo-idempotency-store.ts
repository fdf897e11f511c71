import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/Either'
import type { Collection } from 'mongodb'
import { storeFailed } from '../../src/domain/errors.js'
import {
  DEFAULT_LEASE_MS,
  DEFAULT_RECORD_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyStore,
} from '../../src/domain/idempotency-store.js'
import type { Pet } from '../../src/domain/pet.js'
import { mongoCall } from './mongo-call.js'
import { accessOf, collectionIn, type MongoAdapterOptions, serverBound, serverTime } from './mongo-options.js'
import { fromDocument, type PetDocument, toDocument } from './pet-document.js'

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys'

export interface IdempotencyDocument {
  readonly _id: string
  /** Who holds the claim: only its holder may end its lease. */
  readonly token: string
  readonly fingerprint: string
  /** What the pet is inserted under; kept by a claim that takes over a lapsed one. */
  readonly createId: string
  readonly pet?: PetDocument
  readonly leaseEndsAt: Date
  /** When the TTL index deletes the record: a record lifetime after its claim, then after its completion. */
  readonly expiresAt: Date
}

/** An ended lease: the epoch, before any clock's now (a member's whose clock is behind, a test's). */
const ENDED = new Date(0)
/** A caller's value enters a pipeline only as a literal: a pet named `$$NOW` stays a name. */
const literal = (value: string) => ({ $literal: value })
const isMissing = (field: string) => ({ $eq: [{ $type: field }, 'missing'] })

/** A claim in progress, within its lifetime, whose lease ran out or was ended. */
const isLapsed = (offsetMs: number) => ({
  $and: [isMissing('$pet'), { $gt: ['$expiresAt', serverTime(offsetMs)] }, { $lte: ['$leaseEndsAt', serverTime(offsetMs)] }],
})

/**
 * A claim takes the record when there is none, its lifetime passed, or its lease lapsed and the body
 * is the same; never when it carries the claim's own token (this claim, applied already).
 */
const takes = (offsetMs: number, fingerprint: string, token: string) => ({
  $and: [
    { $ne: ['$token', literal(token)] },
    {
      $or: [
        isMissing('$expiresAt'),
        { $lte: ['$expiresAt', serverTime(offsetMs)] },
        { $and: [isLapsed(offsetMs), { $eq: ['$fingerprint', literal(fingerprint)] }] },
      ],
    },
  ],
})

interface ClaimTimes {
  readonly leaseMs: number
  readonly recordTtlMs: number
  readonly offsetMs: number
}

/**
 * Claims a scope for `token` in one atomic upserted update: a record it takes becomes a claim for
 * `leaseMs`, kept a record lifetime, with the create id of a lapsed claim it takes over or else
 * `createId`. `withdrawn`: the same update after the claim's call failed, its lease ended whether
 * the claim landed already or lands later (finding its own token, it then takes nothing).
 */
export const claimUpdate = (token: string, fingerprint: string, createId: string, times: ClaimTimes, withdrawn = false) => {
  const { leaseMs, recordTtlMs, offsetMs } = times
  const taken = takes(offsetMs, fingerprint, token)
  const fresh = (value: unknown, field: string) => ({ $cond: [taken, value, field] })
  const ended = { $cond: [{ $or: [taken, { $eq: ['$token', literal(token)] }] }, ENDED, '$leaseEndsAt'] }
  const keptId = { $cond: [isLapsed(offsetMs), { $ifNull: ['$createId', literal(createId)] }, literal(createId)] }
  return [
    {
      $set: {
        token: fresh(literal(token), '$token'),
        fingerprint: fresh(literal(fingerprint), '$fingerprint'),
        createId: fresh(keptId, '$createId'),
        pet: fresh('$$REMOVE', '$pet'),
        leaseEndsAt: withdrawn ? ended : fresh(serverTime(offsetMs, leaseMs), '$leaseEndsAt'),
        expiresAt: fresh(serverTime(offsetMs, recordTtlMs), '$expiresAt'),
      },
    },
  ]
}

/** Records the created pet, answered for `recordTtlMs` from now. */
export const completeUpdate = (fingerprint: string, pet: PetDocument, recordTtlMs: number, offsetMs: number) => [
  { $set: { fingerprint: literal(fingerprint), pet: { $literal: pet }, expiresAt: serverTime(offsetMs, recordTtlMs) } },
]

/** The claim while `token` holds it in progress; ending its lease keeps its fingerprint and create id for the same body. */
export const inProgressFilter = (scope: string, token: string) => ({ _id: scope, token, pet: { $exists: false } })
export const endLeaseUpdate = { $set: { leaseEndsAt: ENDED } }

const held = ({ fingerprint, pet }: IdempotencyDocument): E.Either<string, IdempotencyClaim> =>
  pet === undefined
    ? E.right({ kind: 'in_progress', fingerprint })
    : E.map((stored: Pet) => ({ kind: 'completed', fingerprint, pet: stored }) as const)(fromDocument(pet))

/** The times a MongoDB idempotency store honours, all the server's; `clockOffsetMs` moves its clock, for tests only. */
export type MongoIdempotencyTimes = Partial<Omit<ClaimTimes, 'offsetMs'>> & { readonly clockOffsetMs?: () => number }

/** The IdempotencyStore port over a MongoDB collection keyed by scope: a claim is one upserted findOneAndUpdate. */
export const mongoIdempotencyStore = ({
  recordTtlMs = DEFAULT_RECORD_TTL_MS,
  leaseMs = DEFAULT_LEASE_MS,
  clockOffsetMs = () => 0,
  ...options
}: MongoAdapterOptions & MongoIdempotencyTimes): IdempotencyStore => {
  const access = accessOf(options)
  const bound = serverBound(access.timeoutMs)
  const update = (fingerprint: string, token: string, withdrawn = false) =>
    claimUpdate(token, fingerprint, randomUUID(), { leaseMs, recordTtlMs, offsetMs: clockOffsetMs() }, withdrawn)
  const call = <A>(operation: string, work: (records: Collection<IdempotencyDocument>) => Promise<A>, roundTrips = 1) =>
    mongoCall(access, operation, async () => work(await collectionIn<IdempotencyDocument>(access, IDEMPOTENCY_COLLECTION)), roundTrips)()
  const expired = (id: number) =>
    `complete idempotency key: the record expired before pet ${id} was recorded; the key does not answer with this pet`
  return {
    claim: (scope, fingerprint) => async () => {
      const [token, options] = [randomUUID(), { ...bound, upsert: true, returnDocument: 'after' } as const]
      const claimed = await call(
        'claim idempotency key',
        (records) => records.findOneAndUpdate({ _id: scope }, update(fingerprint, token), options),
        2,
      )
      if (E.isRight(claimed)) {
        const record = claimed.right
        if (record === null) return E.left(storeFailed('claim idempotency key: the claimed record was not returned'))
        return record.token === token
          ? E.right({ kind: 'claimed', token, createId: record.createId })
          : E.mapLeft(storeFailed)(held(record))
      }
      // Applied maybe, or yet to land (its answer lost, an attempt still on its way: the driver
      // retries a findAndModify once). Only this adapter knows the token: it withdraws the claim,
      // best effort, lest the client's retry get 409 for a lease.
      await call('withdraw idempotency claim', (records) =>
        records.updateOne({ _id: scope }, update(fingerprint, token, true), { ...bound, upsert: true }),
      )
      return claimed
    },
    // For the claim's create id, whoever holds the claim now.
    complete: (scope, createId, fingerprint, pet) => async () => {
      const completion = completeUpdate(fingerprint, toDocument(pet), recordTtlMs, clockOffsetMs())
      const result = await call('complete idempotency key', (records) => records.updateOne({ _id: scope, createId }, completion, bound))
      return E.isRight(result) && result.right.matchedCount !== 1 ? E.left(storeFailed(expired(pet.id))) : E.map(() => undefined)(result)
    },
    endLease: (scope, token) => async () =>
      E.map(() => undefined)(
        await call('end idempotency lease', (records) => records.updateOne(inProgressFilter(scope, token), endLeaseUpdate, bound)),
      ),
  }
}
