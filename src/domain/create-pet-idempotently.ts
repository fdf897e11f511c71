import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import * as t from 'io-ts'
import { describeErrors, ruleCodec } from './codec.js'
import { decodeNewPet } from './create-pet.js'
import {
  type IdempotencyKeyInUse,
  idempotencyKeyInUse,
  type IdempotencyKeyMismatch,
  idempotencyKeyMismatch,
  type InvalidParameter,
  invalidParameter,
  type InvalidPet,
  type StoreError,
} from './errors.js'
import type { IdempotencyClaim, IdempotencyStore } from './idempotency-store.js'
import type { Pet, PetDraft } from './pet.js'
import type { PetRepository } from './pet-repository.js'

const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/** A createPet that a client may safely retry: the key, who sent it, and what was sent. */
export interface IdempotentCreateRequest {
  /** Who sent the key: keys are scoped to their client, so no client can see another's response. */
  readonly client: string
  readonly key: string
  /** Equal for bodies that are equal as JSON (key order and whitespace do not matter). */
  readonly fingerprint: string
  readonly body: unknown
}

type IdempotentCreateError = InvalidParameter | InvalidPet | StoreError | IdempotencyKeyMismatch | IdempotencyKeyInUse

/** 1 to 255 visible ASCII characters: what fits in a header and a log line unchanged. */
const KEY_SYNTAX = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`)

const IdempotencyKey = ruleCodec<string>('IdempotencyKey', (input) =>
  typeof input === 'string' && KEY_SYNTAX.test(input) ? undefined : `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters`,
)

/**
 * The key, then the body: a request the rules refuse holds no key and touches no store. The body's
 * problems are InvalidPet's, the key's InvalidParameter's, so they are not named together.
 */
const decodeIdempotentCreate = (
  request: IdempotentCreateRequest,
): E.Either<InvalidParameter | InvalidPet, { scope: string; draft: PetDraft }> =>
  pipe(
    t.type({ 'Idempotency-Key': IdempotencyKey }).decode({ 'Idempotency-Key': request.key }),
    E.mapLeft((errors): InvalidParameter | InvalidPet => invalidParameter(describeErrors(errors))),
    E.flatMap(({ 'Idempotency-Key': key }) =>
      pipe(
        decodeNewPet(request.body),
        E.map((draft) => ({ scope: `${request.client}:${key}`, draft })),
      ),
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

/**
 * createPet with an Idempotency-Key: the first request with a key creates the pet and records the
 * answer; a retry with the same key and body gets that same pet without creating anything; the same
 * key with another body is refused, and so is a retry while the first is still being processed.
 */
export const createPetIdempotently =
  (deps: { readonly pets: PetRepository; readonly idempotency: IdempotencyStore }) =>
  (request: IdempotentCreateRequest): TE.TaskEither<IdempotentCreateError, Pet> => {
    const resume =
      (scope: string, draft: PetDraft) =>
      (claim: IdempotencyClaim): TE.TaskEither<IdempotentCreateError, Pet> => {
        switch (claim.kind) {
          case 'claimed':
            return pipe(
              deps.pets.insert(draft, claim.createId),
              TE.tap((pet) => deps.idempotency.complete(scope, claim.createId, request.fingerprint, pet)),
              TE.orElseW(endingLease(deps.idempotency, scope, claim.token)),
            )
          case 'completed':
            return claim.fingerprint === request.fingerprint ? TE.right(claim.pet) : TE.left(idempotencyKeyMismatch)
          case 'in_progress':
            return TE.left(claim.fingerprint === request.fingerprint ? idempotencyKeyInUse : idempotencyKeyMismatch)
        }
      }
    return pipe(
      decodeIdempotentCreate(request),
      E.matchW(TE.left, ({ scope, draft }) => pipe(deps.idempotency.claim(scope, request.fingerprint), TE.flatMap(resume(scope, draft)))),
    )
  }
