import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeNewPet } from '../../src/domain/create-pet.js'
import { NumberText } from '../../src/domain/integer-text.js'
import { MAX_NAME_LENGTH } from '../../src/domain/pet.js'

const problemsOf = (body: unknown): ReadonlyArray<string> => {
  const result = decodeNewPet(body)
  return E.isLeft(result) ? result.left.problems : []
}

const NewPetRules = suite('NewPet rules')

NewPetRules('accepts a pet with name, categoryId and status', () => {
  assert.equal(decodeNewPet({ name: 'Rex', categoryId: 7, status: 'sold' }), E.right({ name: 'Rex', categoryId: 7, status: 'sold' }))
})

NewPetRules('assigns available when status is omitted', () => {
  assert.equal(decodeNewPet({ name: 'Rex', categoryId: 7 }), E.right({ name: 'Rex', categoryId: 7, status: 'available' }))
})

NewPetRules('accepts each of the three statuses', () => {
  for (const status of ['available', 'pending', 'sold']) {
    assert.ok(E.isRight(decodeNewPet({ name: 'Rex', categoryId: 1, status })), status)
  }
})

NewPetRules('drops a client-sent id and unknown fields', () => {
  assert.equal(
    decodeNewPet({ id: 99, name: 'Rex', categoryId: 1, owner: 'x' }),
    E.right({ name: 'Rex', categoryId: 1, status: 'available' }),
  )
})

NewPetRules('keeps the name exactly as sent', () => {
  for (const name of ['  spaced  ', 'e\u0301 vs \u00e9', '🐕‍🦺', 'x'.repeat(MAX_NAME_LENGTH)]) {
    assert.equal(decodeNewPet({ name, categoryId: 1 }), E.right({ name, categoryId: 1, status: 'available' }))
  }
})

NewPetRules('counts the name length in code points, so 200 emoji are accepted', () => {
  const name = '🐕'.repeat(MAX_NAME_LENGTH)
  assert.equal(decodeNewPet({ name, categoryId: 1 }), E.right({ name, categoryId: 1, status: 'available' }))
  assert.equal(problemsOf({ name: `${name}🐕`, categoryId: 1 }), [`name: must be at most ${MAX_NAME_LENGTH} characters`])
})

NewPetRules('accepts zero, negative and the largest safe categoryId', () => {
  for (const categoryId of [0, -5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
    assert.ok(E.isRight(decodeNewPet({ name: 'Rex', categoryId })), String(categoryId))
  }
})

// Each bad input beside the exact problems expected.
const rejected: ReadonlyArray<readonly [string, unknown, ReadonlyArray<string>]> = [
  ['a missing name', { categoryId: 1 }, ['name: is required']],
  ['a missing categoryId', { name: 'Rex' }, ['categoryId: is required']],
  ['an empty object', {}, ['name: is required', 'categoryId: is required']],
  ['an empty name', { name: '', categoryId: 1 }, ['name: must not be empty']],
  ['a name that is not a string', { name: 42, categoryId: 1 }, ['name: must be a string']],
  ['a null name', { name: null, categoryId: 1 }, ['name: must be a string']],
  [
    'a name over the maximum length',
    { name: 'x'.repeat(MAX_NAME_LENGTH + 1), categoryId: 1 },
    [`name: must be at most ${MAX_NAME_LENGTH} characters`],
  ],
  [
    'a name with a lone surrogate',
    { name: 'Rex\ud800', categoryId: 1 },
    ['name: must be well-formed Unicode (it contains a lone surrogate)'],
  ],
  ['a categoryId given as a string', { name: 'Rex', categoryId: '7' }, ['categoryId: must be an integer']],
  ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }, ['categoryId: must be an integer']],
  ['a categoryId beyond 2^53 - 1', { name: 'Rex', categoryId: 2 ** 53 }, ['categoryId: must be between -(2^53 - 1) and 2^53 - 1']],
  ['a status outside the enumeration', { name: 'Rex', categoryId: 1, status: 'lost' }, ['status: must be one of available, pending, sold']],
  ['a null status', { name: 'Rex', categoryId: 1, status: null }, ['status: must be one of available, pending, sold']],
  ['an array body', [{ name: 'Rex', categoryId: 1 }], ['the body must be a JSON object']],
  ['a string body', 'Rex', ['the body must be a JSON object']],
  ['a null body', null, ['the body must be a JSON object']],
]

for (const [label, body, problems] of rejected) {
  NewPetRules(`rejects ${label}`, () => {
    assert.equal(problemsOf(body), problems)
  })
}

NewPetRules('judges a categoryId by the text the client wrote: 0.99999999999999999 is no integer, 12e-1 neither, 1.0 is 1', () => {
  assert.equal(problemsOf({ name: 'Rex', categoryId: new NumberText('0.99999999999999999') }), ['categoryId: must be an integer'])
  assert.equal(problemsOf({ name: 'Rex', categoryId: new NumberText('12e-1') }), ['categoryId: must be an integer'])
  assert.equal(
    decodeNewPet({ name: 'Rex', categoryId: new NumberText('1.0') }),
    E.right({ name: 'Rex', categoryId: 1, status: 'available' }),
  )
})

NewPetRules.run()
