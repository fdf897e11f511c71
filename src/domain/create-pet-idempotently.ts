import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { createPet } from './create-pet.js'
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
import type { Pet } from './pet.js'
import type { PetRepository } from './pet-repository.js'

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/** A createPet that a client may safely retry: the key, who sent it, and what was sent. */
export interface IdempotentCreateRequest {
  /** Who sent the key: keys are scoped to their client, so no client can see another's response. */
  readonly client: string
  readonly key: string
  /** Equal for bodies that are equal as JSON (key order and whitespace do not matter). */
  readonly fingerprint: string
  readonly body: unknown
}

export type IdempotentCreateError = InvalidParameter | InvalidPet | StoreError | IdempotencyKeyMismatch | IdempotencyKeyInUse

/** 1 to 255 visible ASCII characters: what fits in a header and a log line unchanged. */
const KEY_SYNTAX = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`)

const decodeKey = (key: string): E.Either<InvalidParameter, string> =>
  KEY_SYNTAX.test(key)
    ? E.right(key)
    : E.left(invalidParameter([`Idempotency-Key: must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters`]))

/**
 * createPet with an Idempotency-Key: the first request with a key creates the pet and records the
 * answer; a retry with the same key and body gets that same pet without creating anything; the same
 * key with another body is refused, and so is a retry while the first is still being processed.
 */
export const createPetIdempotently = (deps: { readonly pets: PetRepository; readonly idempotency: IdempotencyStore }) => {
  const create = createPet(deps)
  return (request: IdempotentCreateRequest): TE.TaskEither<IdempotentCreateError, Pet> => {
    const resume =
      (scope: string) =>
      (claim: IdempotencyClaim): TE.TaskEither<IdempotentCreateError, Pet> => {
        switch (claim.kind) {
          case 'claimed':
            return pipe(
              create(request.body),
              // A create that failed leaves nothing behind: the client may fix it and retry with the key.
              TE.orElseW((error) =>
                pipe(
                  deps.idempotency.release(scope, claim.token),
                  TE.flatMap(() => TE.left(error)),
                ),
              ),
              TE.tap((pet) => deps.idempotency.complete(scope, claim.token, request.fingerprint, pet)),
            )
          case 'completed':
            return claim.fingerprint === request.fingerprint ? TE.right(claim.pet) : TE.left(idempotencyKeyMismatch)
          case 'in_progress':
            return TE.left(claim.fingerprint === request.fingerprint ? idempotencyKeyInUse : idempotencyKeyMismatch)
        }
      }
    return pipe(
      decodeKey(request.key),
      TE.fromEither,
      TE.map((key) => `${request.client}:${key}`),
      TE.flatMap((scope) => pipe(deps.idempotency.claim(scope, request.fingerprint), TE.flatMap(resume(scope)))),
    )
  }
}
