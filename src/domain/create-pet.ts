import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { describeErrors } from './codec.js'
import { createPetOnce, type IdempotencyKey, scopeOf } from './create-pet-idempotently.js'
import {
  type IdempotencyKeyInUse,
  type IdempotencyKeyMismatch,
  type InvalidParameter,
  type InvalidPet,
  invalidPet,
  type StoreError,
} from './errors.js'
import type { IdempotencyStore } from './idempotency-store.js'
import { DEFAULT_STATUS, NewPet, type Pet, type PetDraft } from './pet.js'
import type { PetRepository } from './pet-repository.js'

const isPlainObject = (input: unknown): boolean => typeof input === 'object' && input !== null && !Array.isArray(input)

/**
 * Checks a request body against the NewPet rules and resolves the default status. Only the three
 * fields are read (NewPet drops every other key anyway), so a body's other keys cost nothing here.
 */
export const decodeNewPet = (body: unknown): E.Either<InvalidPet, PetDraft> => {
  if (!isPlainObject(body)) return E.left(invalidPet(['the body must be a JSON object']))
  const { name, categoryId, status } = body as Record<string, unknown>
  return pipe(
    NewPet.decode(status === undefined ? { name, categoryId } : { name, categoryId, status }),
    E.mapLeft((errors) => invalidPet(describeErrors(errors))),
    E.map((pet) => ({ name: pet.name, categoryId: pet.categoryId, status: pet.status ?? DEFAULT_STATUS })),
  )
}

type CreatePetError = InvalidParameter | InvalidPet | StoreError | IdempotencyKeyMismatch | IdempotencyKeyInUse

/**
 * createPet (spec §4.2): validate the body, then store it; the store assigns the id. With an
 * idempotency key, the key's syntax is checked first, then the body, and the pet is created once
 * per key (createPetOnce): a request the rules refuse holds no key and touches no store. The body's
 * problems are InvalidPet's, the key's InvalidParameter's, so they are not named together.
 */
export const createPet =
  (deps: { readonly pets: PetRepository; readonly idempotency: IdempotencyStore }) =>
  (body: unknown, key?: IdempotencyKey): TE.TaskEither<CreatePetError, Pet> =>
    key === undefined
      ? pipe(
          decodeNewPet(body),
          E.matchW(TE.left, (draft) => deps.pets.insert(draft)),
        )
      : pipe(
          scopeOf(key),
          E.flatMap((scope) =>
            pipe(
              decodeNewPet(body),
              E.map((draft) => ({ scope, draft })),
            ),
          ),
          E.matchW(TE.left, ({ scope, draft }) => createPetOnce(deps, scope, key.fingerprint)(draft)),
        )
