import * as E from 'fp-ts/Either'
import { decodeNewPet } from '../../domain/create-pet.js'
import type { PetDraft } from '../../domain/pet.js'
import { DEMO_PETS } from './demo-pets.js'

/** The pets a store starts from, and where they came from (for the start-up log). */
export interface Seed {
  /** `demo`, or the path of the JSON file. */
  readonly source: string
  readonly pets: ReadonlyArray<PetDraft>
}

const SETTING = 'PETSTORE_SEED'

/**
 * Each entry is checked exactly as a createPet body is (same rules, same default status, unknown
 * fields ignored), and every problem is named by its 0-based index and field:
 * `PETSTORE_SEED[1].name: must be a string`.
 */
export const decodeSeed = (source: string, value: unknown): E.Either<ReadonlyArray<string>, Seed> => {
  if (!Array.isArray(value)) return E.left([`${SETTING}: ${source} must hold a JSON array of pets (NewPet objects)`])
  const pets: PetDraft[] = []
  const problems: string[] = []
  value.forEach((entry: unknown, index) => {
    const where = `${SETTING}[${index}]`
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: must be a JSON object (a NewPet)`)
      return
    }
    const pet = decodeNewPet(entry)
    if (E.isRight(pet)) pets.push(pet.right)
    else problems.push(...pet.left.problems.map((problem) => `${where}.${problem}`))
  })
  return problems.length === 0 ? E.right({ source, pets }) : E.left(problems)
}

/**
 * Reads PETSTORE_SEED: unset or empty for none, `demo` for the built-in set, anything else is the
 * path of a JSON file holding an array of NewPet objects.
 */
export const readSeed = (
  setting: string | undefined,
  readText: (path: string) => string,
): E.Either<ReadonlyArray<string>, Seed | undefined> => {
  if (setting === undefined || setting === '') return E.right(undefined)
  if (setting === 'demo') return decodeSeed('demo', DEMO_PETS)
  let text: string
  try {
    text = readText(setting)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
    return E.left([`${SETTING}: cannot read ${setting} (${code}); set demo or the path of a JSON file`])
  }
  try {
    return decodeSeed(setting, JSON.parse(text) as unknown)
  } catch (error) {
    return E.left([`${SETTING}: ${setting} is not valid JSON: ${(error as Error).message.slice(0, 120)}`])
  }
}
