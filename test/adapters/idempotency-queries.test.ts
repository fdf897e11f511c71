import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { claimUpdate, completeUpdate, endLeaseUpdate, inProgressFilter } from '../../adapters/mongodb/mongo-idempotency-store.js'
import type { PetDocument } from '../../adapters/mongodb/pet-document.js'
import { serverTime } from '../../adapters/mongodb/mongo-options.js'
import { applyPipeline } from '../support/pipeline-evaluator.js'

const LEASE_MS = 30_000
const TTL_MS = 86_400_000
const T0 = new Date('2026-03-01T12:00:00Z')
const at = (ms: number): Date => new Date(T0.getTime() + ms)
const PET: PetDocument = { _id: 7, name: 'Rex', categoryId: 1, status: 'sold' }

/** Every Date a document holds: an instance's clock would show up as one. */
const datesIn = (value: unknown): ReadonlyArray<Date> => {
  if (value instanceof Date) return [value]
  if (typeof value !== 'object' || value === null) return []
  return Object.values(value).flatMap(datesIn)
}

const TIMES = { leaseMs: LEASE_MS, recordTtlMs: TTL_MS, offsetMs: 0 }

const claim = (record: Record<string, unknown> | undefined, token: string, fingerprint: string, serverNow: Date) =>
  applyPipeline(record, 'client:key', claimUpdate(token, fingerprint, `id-${token}`, TIMES), serverNow)

/** A claim in progress as `claim` leaves it, made at `madeAt` ms. */
const inProgress = (token: string, fingerprint: string, madeAt: number) => ({
  _id: 'client:key',
  token,
  fingerprint,
  createId: `id-${token}`,
  leaseEndsAt: at(madeAt + LEASE_MS),
  expiresAt: at(madeAt + TTL_MS),
})

const Queries = suite('MongoDB idempotency documents: expiry by the server’s clock')

Queries('no update carries an instance’s time: every expiry is computed from $$NOW on the server', () => {
  for (const update of [claimUpdate('t1', 'f1', 'id-t1', TIMES), completeUpdate('f1', PET, TTL_MS, 0)]) {
    assert.equal(datesIn(update), [])
    assert.match(JSON.stringify(update), '"$$NOW"')
  }
  assert.is(serverTime(0), '$$NOW')
  assert.equal(serverTime(0, LEASE_MS), { $add: ['$$NOW', LEASE_MS] })
})

Queries('a claim of a missing record takes it for the lease and keeps it a record lifetime, from the server’s now', () => {
  assert.equal(claim(undefined, 't1', 'f1', T0), inProgress('t1', 'f1', 0))
})

Queries('a claim leaves a live claim and a live completed record exactly as they are', () => {
  const live = inProgress('t1', 'f1', 0)
  assert.equal(claim(live, 't2', 'f2', at(LEASE_MS - 1)), live)
  const completed = { ...live, pet: PET, expiresAt: at(TTL_MS) }
  assert.equal(claim(completed, 't2', 'f2', at(TTL_MS - 1)), completed)
})

Queries('a claim that takes over a lapsed lease keeps the create id of the claim it took over', () => {
  assert.equal(claim(inProgress('t1', 'f1', 0), 't2', 'f1', at(LEASE_MS)), { ...inProgress('t2', 'f1', LEASE_MS), createId: 'id-t1' })
})

Queries('a claim with another body leaves a lapsed claim as it is', () => {
  const lapsed = inProgress('t1', 'f1', 0)
  assert.equal(claim(lapsed, 't2', 'f2', at(LEASE_MS)), lapsed)
})

Queries('a claim takes over a record past its lifetime by the server’s clock, dropping its pet and its create id', () => {
  const expired = { ...inProgress('t1', 'f1', 0), pet: PET, expiresAt: at(TTL_MS) }
  assert.equal(claim(expired, 't3', 'f3', at(TTL_MS + 1)), inProgress('t3', 'f3', TTL_MS + 1))
  assert.equal(claim(inProgress('t1', 'f1', 0), 't4', 'f1', at(TTL_MS)), inProgress('t4', 'f1', TTL_MS))
})

Queries('completing records the pet for its lifetime from the server’s now', () => {
  const held = inProgress('t1', 'f1', 0)
  assert.equal(applyPipeline(held, 'client:key', completeUpdate('f1', PET, TTL_MS, 0), at(5)), {
    ...held,
    pet: PET,
    expiresAt: at(5 + TTL_MS),
  })
})

Queries('ending a lease touches only the holder’s claim in progress, and dates the lease before any server’s now', () => {
  assert.equal(inProgressFilter('client:key', 't1'), { _id: 'client:key', token: 't1', pet: { $exists: false } })
  assert.equal(endLeaseUpdate, { $set: { leaseEndsAt: new Date(0) } })
})

Queries('a claim with the same body takes over at once a claim whose lease was ended, keeping its create id', () => {
  const ended = { ...inProgress('t1', 'f1', 0), ...endLeaseUpdate.$set }
  assert.equal(claim(ended, 't2', 'f1', at(1)), { ...inProgress('t2', 'f1', 1), createId: 'id-t1' })
})

Queries('a claim with another body leaves a claim whose lease was ended as it is', () => {
  const ended = { ...inProgress('t1', 'f1', 0), ...endLeaseUpdate.$set }
  assert.equal(claim(ended, 't2', 'f2', at(1)), ended)
})

const withdraw = (record: Record<string, unknown> | undefined, token: string, fingerprint: string, serverNow: Date) =>
  applyPipeline(record, 'client:key', claimUpdate(token, fingerprint, `id-${token}`, TIMES, true), serverNow)

Queries('a claim that finds its own token takes nothing: it was applied already, and keeps its lease as it is', () => {
  const mine = inProgress('t1', 'f1', 0)
  assert.equal(claim(mine, 't1', 'f1', at(LEASE_MS + 1)), mine)
})

Queries('withdrawing a claim that landed ends its lease, keeping its body and create id', () => {
  assert.equal(withdraw(inProgress('t1', 'f1', 0), 't1', 'f1', at(1)), { ...inProgress('t1', 'f1', 0), leaseEndsAt: new Date(0) })
})

Queries('withdrawing a claim that has not landed writes it with its lease ended; when it lands it takes nothing', () => {
  const withdrawn = withdraw(undefined, 't1', 'f1', at(1))
  assert.equal(withdrawn, { ...inProgress('t1', 'f1', 1), leaseEndsAt: new Date(0) })
  assert.equal(claim(withdrawn, 't1', 'f1', at(2)), withdrawn)
  assert.equal(claim(withdrawn, 't2', 'f1', at(3)), { ...inProgress('t2', 'f1', 3), createId: 'id-t1' })
})

Queries('withdrawing leaves another claim, live or completed, as it is', () => {
  const live = inProgress('t1', 'f1', 0)
  assert.equal(withdraw(live, 't2', 'f1', at(1)), live)
  const completed = { ...live, pet: PET }
  assert.equal(withdraw(completed, 't2', 'f1', at(LEASE_MS + 1)), completed)
})

Queries('values from a request stay values: a pet named like an expression is stored as named', () => {
  const sneaky: PetDocument = { ...PET, name: '$$NOW' }
  const held = inProgress('t1', 'f1', 0)
  assert.equal(applyPipeline(held, 'client:key', completeUpdate('$token', sneaky, TTL_MS, 0), T0).pet, sneaky)
  assert.is(applyPipeline(held, 'client:key', completeUpdate('$token', sneaky, TTL_MS, 0), T0).fingerprint, '$token')
  assert.is(claim(undefined, '$fingerprint', '$pet', T0).token, '$fingerprint')
})

Queries('a test moves the server’s clock by an offset, never by sending a time', () => {
  const update = claimUpdate('t1', 'f1', 'id-t1', { ...TIMES, offsetMs: 60_000 })
  assert.equal(datesIn(update), [])
  assert.equal(applyPipeline(undefined, 'client:key', update, T0).leaseEndsAt, at(60_000 + LEASE_MS))
})

Queries.run()
