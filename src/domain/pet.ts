import * as t from 'io-ts'
import { ruleCodec } from './codec.js'
import { JsonInteger } from './integer-text.js'

/** The three availability states of the spec (§2 PetStatus), in the order the spec lists them. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const
export type PetStatus = (typeof PET_STATUSES)[number]

/** What createPet assigns when the client omits `status` (NewPet in docs/openapi.yaml): a pet without one would match no filter. */
export const DEFAULT_STATUS: PetStatus = 'available'

/** Longest accepted name, counted in Unicode code points as JSON Schema's maxLength counts them. */
export const MAX_NAME_LENGTH = 200

const required = (input: unknown, problem: string): string => (input === undefined ? 'is required' : problem)

const isPetStatus = (input: unknown): input is PetStatus =>
  typeof input === 'string' && (PET_STATUSES as ReadonlyArray<string>).includes(input)

export const PetStatus = ruleCodec<PetStatus>('PetStatus', (input) =>
  isPetStatus(input) ? undefined : required(input, `must be one of ${PET_STATUSES.join(', ')}`),
)

/** A non-empty, well-formed Unicode string of at most MAX_NAME_LENGTH code points, kept byte-exact. */
const PetName = ruleCodec<string>('PetName', (input) => {
  if (typeof input !== 'string') return required(input, 'must be a string')
  if (input.length === 0) return 'must not be empty'
  // A string of at most MAX code units has at most MAX code points: count them only when needed.
  if (input.length > MAX_NAME_LENGTH && [...input].length > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters`
  if (!input.isWellFormed()) return 'must be well-formed Unicode (it contains a lone surrogate)'
  return undefined
})

/**
 * Any safe integer, zero and negatives included: there is no category store to check against. A
 * JSON number beyond 2^53 - 1 may already have been rounded by the parser, so it is refused rather
 * than stored wrong.
 */
export const CategoryId = JsonInteger(
  'CategoryId',
  (input) => required(input, 'must be an integer'),
  (integer) => (Number.isSafeInteger(integer) ? undefined : 'must be between -(2^53 - 1) and 2^53 - 1'),
)

/** A service-assigned identifier: a positive safe integer. */
export const PetId = ruleCodec<number>('PetId', (input) =>
  typeof input === 'number' && Number.isSafeInteger(input) && input > 0 ? undefined : 'must be a positive safe integer',
)
export type PetId = number

/** The body of createPet. `t.exact` drops every other key, including a client-sent `id`. */
export const NewPet = t.exact(t.intersection([t.type({ name: PetName, categoryId: CategoryId }), t.partial({ status: PetStatus })]))
export type NewPet = t.TypeOf<typeof NewPet>

/** A pet as stored and returned: every field of NewPet, the status resolved, plus its id. */
export const Pet = t.exact(t.type({ id: PetId, name: PetName, categoryId: CategoryId, status: PetStatus }))
export type Pet = Readonly<t.TypeOf<typeof Pet>>

/** What the repository stores: a pet before the store has assigned its id. */
export type PetDraft = Omit<Pet, 'id'>
