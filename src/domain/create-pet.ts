import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import type * as TE from 'fp-ts/TaskEither'
import { describeErrors } from './codec.js'
import { type InvalidPet, invalidPet, type StoreError } from './errors.js'
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

/** createPet (spec §4.2): validate the body, then store it; the store assigns the id. */
export const createPet =
  (deps: { readonly pets: PetRepository }) =>
  (body: unknown): TE.TaskEither<InvalidPet | StoreError, Pet> =>
  async () => {
    const draft = decodeNewPet(body)
    return E.isLeft(draft) ? draft : deps.pets.insert(draft.right)()
  }
