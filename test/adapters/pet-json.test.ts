import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { etagOf } from '../../adapters/http/etag.js'
import { pageEtag, writtenPage } from '../../adapters/http/pet-json.js'
import type { Pet } from '../../src/domain/pet.js'

const pet = (id: number, name = `pet ${id}`): Pet => Object.freeze({ id, name, categoryId: 1, status: 'available' as const })

const Pages = suite('writtenPage: a page written once, reused only when it is the same page')

Pages('A page is the pets as JSON.stringify writes them, and its tag covers the body and the Link', () => {
  const pets = [pet(1), pet(2, 'Zoë "the cat"')]
  const page = writtenPage(pets, '</v1/pets?after=x>; rel="next"')
  assert.is(page.json, JSON.stringify(pets))
  assert.is(pageEtag(page), etagOf(JSON.stringify(pets), '</v1/pets?after=x>; rel="next"'))
})

Pages('The same pets with another Link, or other pets ending with the same one, are another page', () => {
  const [first, second, third] = [pet(1), pet(2), pet(3)]
  const withNext = writtenPage([first, third], '<next>')
  const withoutNext = writtenPage([first, third], undefined)
  const others = writtenPage([second, third], undefined)
  assert.is.not(pageEtag(withNext), pageEtag(withoutNext))
  assert.is(others.json, JSON.stringify([second, third]))
  assert.is(writtenPage([first, third], undefined).json, JSON.stringify([first, third]))
})

Pages('Pets that are not frozen (read from MongoDB, new on every read) are written each time', () => {
  const mutable: { id: number; name: string; categoryId: number; status: 'sold' } = { id: 7, name: 'before', categoryId: 2, status: 'sold' }
  assert.is(writtenPage([mutable], undefined).json, JSON.stringify([mutable]))
  mutable.name = 'after'
  assert.is(writtenPage([mutable], undefined).json, JSON.stringify([mutable]))
})

Pages('An empty page is an empty array', () => {
  assert.is(writtenPage([], undefined).json, '[]')
})

Pages.run()
