import { randomUUID } from 'node:crypto'
import * as TE from 'fp-ts/TaskEither'
import { storeFailed } from '../../src/domain/errors.js'
import {
  DEFAULT_LEASE_MS,
  DEFAULT_RECORD_TTL_MS,
  type IdempotencyClaim,
  type IdempotencyStore,
  type IdempotencyTimes,
} from '../../src/domain/idempotency-store.js'
import type { Pet } from '../../src/domain/pet.js'

interface MemoryRecord {
  readonly token: string
  readonly fingerprint: string
  readonly pet?: Pet
  readonly expiresAt: number
}

/**
 * The IdempotencyStore port over process memory: per instance, lost on restart. Records live in a
 * Map in the order they were last written; expired ones are dropped from its front as claims arrive,
 * so memory stays bounded by the traffic of one record lifetime.
 */
export const memoryIdempotencyStore = ({
  recordTtlMs = DEFAULT_RECORD_TTL_MS,
  leaseMs = DEFAULT_LEASE_MS,
  now = Date.now,
}: IdempotencyTimes = {}): IdempotencyStore => {
  const records = new Map<string, MemoryRecord>()

  const write = (scope: string, record: MemoryRecord): void => {
    records.delete(scope)
    records.set(scope, record)
  }

  const sweep = (time: number): void => {
    for (const [scope, record] of records) {
      if (record.expiresAt > time) return
      records.delete(scope)
    }
  }

  const claim = (scope: string, fingerprint: string): IdempotencyClaim => {
    const time = now()
    sweep(time)
    const record = records.get(scope)
    if (record !== undefined && record.expiresAt > time) {
      return record.pet === undefined
        ? { kind: 'in_progress', fingerprint: record.fingerprint }
        : { kind: 'completed', fingerprint: record.fingerprint, pet: record.pet }
    }
    const token = randomUUID()
    write(scope, { token, fingerprint, expiresAt: time + leaseMs })
    return { kind: 'claimed', token }
  }

  /** Whether `token` still holds the claim on `scope` (not taken over, not expired and swept). */
  const holds = (scope: string, token: string): boolean => records.get(scope)?.token === token

  return {
    claim: (scope, fingerprint) => TE.right(claim(scope, fingerprint)),
    complete: (scope, token, fingerprint, pet) =>
      holds(scope, token)
        ? TE.right(write(scope, { token, fingerprint, pet, expiresAt: now() + recordTtlMs }))
        : TE.left(
            storeFailed(`complete idempotency key: the claim was lost before pet ${pet.id} was recorded (its ${leaseMs} ms lease ran out)`),
          ),
    // Like every adapter, only the holder's claim still in progress is released; a completed record stays.
    release: (scope, token) => TE.right(void (holds(scope, token) && records.get(scope)?.pet === undefined && records.delete(scope))),
  }
}
