import { resolve } from 'node:path'
import { loadOpenApiDocument, mergeOverlay } from '../http/openapi-document.js'
import { PACKAGE_ROOT } from '../../src/package-root.js'

/** The test target's part of the contract: one overlay of docs/openapi.yaml. */
const OVERLAY_PATH = resolve(PACKAGE_ROOT, 'docs/openapi-test-target.yaml')

/**
 * The overlay, parsed once per process and copied for each instance: a test suite that starts many
 * instances (startPetStore) would otherwise parse the same YAML for every one of them, and parsing
 * costs far more than the copy. A copy, because the merged contract holds the overlay's objects.
 */
let parsedOverlay: Record<string, unknown> | undefined
const overlay = (): Record<string, unknown> => {
  parsedOverlay ??= loadOpenApiDocument(OVERLAY_PATH)
  return structuredClone(parsedOverlay)
}

/** The contract an instance with the test target serves: `document` with the overlay merged over it. */
export const testTargetContract = (document: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  mergeOverlay({ ...document }, overlay()) as Record<string, unknown>
