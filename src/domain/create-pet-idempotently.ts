import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import * as t from 'io-ts'
import { describeErrors, ruleCodec } from './codec.js'
import {
  type IdempotencyKeyInUse,
  idempotencyKeyInUse,
  type IdempotencyKeyMismatch,
  idempotencyKeyMismatch,
  type InvalidParameter,
  invalidParameter,
  type StoreError,
} from './errors.js'
import type { IdempotencyClaim, IdempotencyStore } from './idempotency-store.js'
import type { Pet, PetDraft } from './pet.js'
import type { PetRepository } from './pet-repository.js'

const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/** What makes a createPet safe to retry: the key, who sent it, and what was sent. */
export interface IdempotencyKey {
  /** Who sent the key: keys are scoped to their client, so no client can see another's response. */
  readonly client: string
  readonly key: string
  /** Equal for bodies that are equal as JSON (key order and whitespace do not matter). */
  readonly fingerprint: string
}

/** 1 to 255 visible ASCII characters: what fits in a header and a log line unchanged. */
const KEY_SYNTAX = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`)

const KeyText = ruleCodec<string>('IdempotencyKey', (input) =>
  typeof input === 'string' && KEY_SYNTAX.test(input) ? undefined : `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters`,
)

const IdempotencyHeader = t.type({ 'Idempotency-Key': KeyText })

/** Where the key is recorded: the key within its client's keys, once its syntax is checked. */
export const scopeOf = ({ client, key }: IdempotencyKey): E.Either<InvalidParameter, string> =>
  pipe(
    IdempotencyHeader.decode({ 'Idempotency-Key': key }),
    E.bimap(
      (errors) => invalidParameter(describeErrors(errors)),
      (header) => `${client}:${header['Idempotency-Key']}`,
    ),
  )

/**
 * On any failure after the claim (the insert, or recording its answer), the claim's lease is ended
 * and the failure answered: the client's retry with the same body takes the claim over at once,
 * with its create id, so it answers the pet this create may have stored or creates it, never a
 * second one (whatever the store says about what it applied). When the lease cannot be ended
 * either, the key stays in use until its lease runs out, and retries meanwhile get
 * IdempotencyKeyInUse: the failure answered is the create's, and its detail says so for the log.
 * A claim call that fails holds no token here: the store that made it ends its lease (the port).
 */
const endingLease =
  (idempotency: IdempotencyStore, scope: string, token: string) =>
  (error: StoreError): TE.TaskEither<StoreError, never> =>
    pipe(
      idempotency.endLease(scope, token),
      TE.mapLeft((endError) => ({
        ...error,
        detail: `${error.detail}; ending the idempotency key's lease failed too, so it stays in use until its lease ends: ${endError.detail}`,
      })),
      TE.flatMap(() => TE.left(error)),
    )

type CreateOnceError = StoreError | IdempotencyKeyMismatch | IdempotencyKeyInUse

type Claimed = Extract<IdempotencyClaim, { readonly kind: 'claimed' }>

/** What a key another request holds answers: that request's pet for the same body, else why not. */
const heldAnswer = (
  fingerprint: string,
  claim: Exclude<IdempotencyClaim, Claimed>,
): E.Either<IdempotencyKeyMismatch | IdempotencyKeyInUse, Pet> => {
  if (claim.fingerprint !== fingerprint) return E.left(idempotencyKeyMismatch)
  return claim.kind === 'completed' ? E.right(claim.pet) : E.left(idempotencyKeyInUse)
}

/**
 * createPet with an idempotency key, once the key and the body are valid: the first request with a
 * key creates the pet and records the answer; a retry with the same key and body gets that same pet
 * without creating anything; the same key with another body is refused, and so is a retry while the
 * first is still being processed.
 */
export const createPetOnce =
  (deps: { readonly pets: PetRepository; readonly idempotency: IdempotencyStore }, scope: string, fingerprint: string) =>
  (draft: PetDraft): TE.TaskEither<CreateOnceError, Pet> => {
    const insertClaimed = (claim: Claimed): TE.TaskEither<StoreError, Pet> =>
      pipe(
        deps.pets.insert(draft, claim.createId),
        TE.tap((pet) => deps.idempotency.complete(scope, claim.createId, fingerprint, pet)),
        TE.orElseW(endingLease(deps.idempotency, scope, claim.token)),
      )
    return pipe(
      deps.idempotency.claim(scope, fingerprint),
      TE.flatMap((claim): TE.TaskEither<CreateOnceError, Pet> =>
        claim.kind === 'claimed' ? insertClaimed(claim) : TE.fromEither(heldAnswer(fingerprint, claim)),
      ),
    )
  }
