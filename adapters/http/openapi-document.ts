import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { load } from 'js-yaml'
import { PACKAGE_ROOT } from '../../src/package-root.js'

/** docs/openapi.yaml, the contract. */
const OPENAPI_FILE = resolve(PACKAGE_ROOT, 'docs/openapi.yaml')

/** Reads the contract (or an overlay of it); the service serves it as JSON and the tests check responses against it. */
export const loadOpenApiDocument = (file: string = OPENAPI_FILE): Record<string, unknown> =>
  load(readFileSync(file, 'utf8')) as Record<string, unknown>

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Whether a list already holds an item equal to `item` (as JSON). */
const holds = (list: ReadonlyArray<unknown>, item: unknown): boolean => list.some((each) => isDeepStrictEqual(each, item))

/**
 * `document` with `overlay` merged over it: objects merge member by member, a list gains the items
 * it lacks (in the overlay's order, after its own), and any other value is replaced. An overlay can
 * add to the document and replace its values, never remove from it. Pure: neither is changed.
 */
export const mergeOverlay = (document: unknown, overlay: unknown): unknown => {
  if (Array.isArray(document) && Array.isArray(overlay)) {
    const own: ReadonlyArray<unknown> = document
    const added: ReadonlyArray<unknown> = overlay
    return [...own, ...added.filter((item) => !holds(own, item))]
  }
  if (!isObject(document) || !isObject(overlay)) return overlay
  const merged: Record<string, unknown> = { ...document }
  for (const [key, value] of Object.entries(overlay))
    merged[key] = Object.hasOwn(document, key) ? mergeOverlay(document[key], value) : value
  return merged
}
