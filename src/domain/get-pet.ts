import * as E from 'fp-ts/Either'
import { pipe } from 'fp-ts/function'
import * as O from 'fp-ts/Option'
import * as T from 'fp-ts/Task'
import * as TE from 'fp-ts/TaskEither'
import * as t from 'io-ts'
import { describeErrors } from './codec.js'
import { type InvalidParameter, invalidParameter, type PetNotFound, petNotFound, type StoreError } from './errors.js'
import { INT64_MAX, INT64_MIN, IntegerText } from './integer-text.js'
import type { Pet, PetId } from './pet.js'
import type { PetRepository } from './pet-repository.js'

/**
 * The path's petId. Any int64 is a well-formed id (spec §4.3: int64), so one that no pet can have
 * (zero, negative, beyond 2^53) is simply not found; only text that is no int64 is invalid.
 */
const GetPetParameters = t.type({
  petId: IntegerText(INT64_MIN, INT64_MAX, `must be a decimal integer between ${INT64_MIN} and ${INT64_MAX}, without leading zeros`),
})

const decodePetId = (text: string): E.Either<InvalidParameter, bigint> =>
  pipe(
    GetPetParameters.decode({ petId: text }),
    E.bimap(
      (errors) => invalidParameter(describeErrors(errors)),
      ({ petId }) => petId,
    ),
  )

const MAX_STORABLE_ID = BigInt(Number.MAX_SAFE_INTEGER)

/** Ids are positive safe integers, so only those need a look-up; any other is found nowhere. */
const storableId = (id: bigint): E.Either<PetNotFound, PetId> =>
  id <= 0n || id > MAX_STORABLE_ID ? E.left(petNotFound(id.toString())) : E.right(Number(id))

/**
 * A plain step, as foundPet below: fp-ts's sequencing functions (`E.flatMap`) go through its `dual`
 * helper, which copies their arguments on every call (docs/adr/0106-use-cases-are-fp-ts-pipelines-whose-per-call-steps-are-plain.md).
 */
const toStorableId = (decoded: E.Either<InvalidParameter, bigint>): E.Either<InvalidParameter | PetNotFound, PetId> =>
  E.isLeft(decoded) ? decoded : storableId(decoded.right)

/** The store's answer for `id`: its pet, or PetNotFound when it has none. */
const foundPet =
  (id: PetId) =>
  (found: E.Either<StoreError, O.Option<Pet>>): E.Either<StoreError | PetNotFound, Pet> =>
    E.isLeft(found) ? found : O.isSome(found.right) ? E.right(found.right.value) : E.left(petNotFound(String(id)))

/** getPet (spec §4.3, deprecated): the pet with that id, or PetNotFound. */
export const getPet =
  (deps: { readonly pets: PetRepository }) =>
  (petIdText: string): TE.TaskEither<InvalidParameter | PetNotFound | StoreError, Pet> =>
    pipe(
      decodePetId(petIdText),
      toStorableId,
      E.matchW(TE.left, (id) => pipe(deps.pets.findById(id), T.map(foundPet(id)))),
    )
