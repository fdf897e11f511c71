import type { Pet, PetDraft } from '../../src/domain/pet.js'

/** The pet every builder starts from: each test overrides only the fields that matter to it. */
const REX: PetDraft = { name: 'Rex', categoryId: 1, status: 'available' }

/**
 * A valid createPet body, which is also a PetDraft a repository stores. An override may add a key or
 * give a field a wrong type (a test of what is refused): the result's type keeps each override's own
 * type, so it is a PetDraft only while every override is one a PetDraft allows.
 */
export const aNewPet = <const Overrides extends object = object>(
  overrides: Overrides = {} as Overrides,
): Omit<PetDraft, keyof Overrides> & Overrides => ({ ...REX, ...overrides })

/** A stored pet, as a repository returns it and the service answers with it. */
export const aPet = (overrides: Partial<Pet> = {}): Pet => ({ id: 1, ...REX, ...overrides })
