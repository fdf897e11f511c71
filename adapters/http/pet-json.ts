import type { Pet } from '../../src/domain/pet.js'
import { etagOf } from './etag.js'

/** A pet's or a page's JSON, and its ETag once asked for. */
interface Written {
  readonly json: string
  etag?: string
}

/** The ETag of what `written` holds (and `link`), computed the first time it is asked for. */
const etagOnce = (written: Written, link?: string): string => {
  written.etag ??= etagOf(written.json, link)
  return written.etag
}

/**
 * The JSON of a pet the store hands out frozen (the memory store's), written once: a frozen pet
 * (only primitive fields) can never change, so its text cannot either. A pet that is not frozen (read
 * from MongoDB, new on every read) is written each time. Serializing a page was a tenth of a list.
 */
const written = new WeakMap<Pet, Written>()

const writtenOf = (pet: Pet): Written => {
  const known = written.get(pet)
  if (known !== undefined) return known
  const made = { json: JSON.stringify(pet) }
  written.set(pet, made)
  return made
}

export const petJson = (pet: Pet): string => (Object.isFrozen(pet) ? writtenOf(pet).json : JSON.stringify(pet))

/** The ETag of a pet's JSON, likewise computed once for a frozen pet. */
export const petEtag = (pet: Pet): string => {
  return Object.isFrozen(pet) ? etagOnce(writtenOf(pet)) : etagOf(JSON.stringify(pet))
}

/** A page as the client reads it: the pets as a JSON array, exactly as JSON.stringify writes it, and its Link. */
export interface WrittenPage extends Written {
  readonly pets: ReadonlyArray<Pet>
  readonly link: string | undefined
}

/**
 * Pages of frozen pets as last written, by their last pet; a popular page (the first, say) is written
 * and hashed once rather than on every request. A page is reused only when it holds the very same
 * pet objects and the same Link: frozen pets never change, so neither can its text. Bounded, like
 * the cursor cache: a crawl through a million pets must not keep every page it saw.
 */
const pages = new Map<Pet, WrittenPage>()
const MAX_PAGES = 1_000

const samePage = (page: WrittenPage, pets: ReadonlyArray<Pet>, link: string | undefined): boolean => {
  if (page.link !== link || page.pets.length !== pets.length) return false
  for (let index = 0; index < pets.length; index += 1) if (page.pets[index] !== pets[index]) return false
  return true
}

export const writtenPage = (pets: ReadonlyArray<Pet>, link: string | undefined): WrittenPage => {
  const last = pets[pets.length - 1]
  const known = last === undefined ? undefined : pages.get(last)
  if (known !== undefined && samePage(known, pets, link)) return known
  const page: WrittenPage = { pets, link, json: `[${pets.map(petJson).join(',')}]` }
  if (last !== undefined && pets.every(Object.isFrozen)) {
    if (pages.size >= MAX_PAGES) pages.clear()
    pages.set(last, page)
  }
  return page
}

/** The ETag of a page (its JSON and its Link: a page whose `next` appears must change its tag), computed once per written page. */
export const pageEtag = (page: WrittenPage): string => etagOnce(page, page.link)
