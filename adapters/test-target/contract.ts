import { resolve } from 'node:path'
import { loadOpenApiDocument, mergeOverlay } from '../http/openapi-document.js'
import { PACKAGE_ROOT } from '../http/package-root.js'

/** The test target's part of the contract: overlays of docs/openapi.yaml. */
const OVERLAY_DIRECTORY = resolve(PACKAGE_ROOT, 'docs/openapi-test-target')

/** The overlays, merged in this order. */
const OVERLAYS = ['faults.yaml', 'sandboxes.yaml', 'sandbox-faults.yaml']

/**
 * Each overlay, parsed once per process and copied for each instance: a test suite that starts many
 * instances (startPetStore) would otherwise parse the same YAML for every one of them, and parsing
 * costs far more than the copy. A copy, because the merged contract holds the overlay's objects.
 */
const parsedOverlays = new Map<string, Record<string, unknown>>()
const overlay = (file: string): Record<string, unknown> => {
  const parsed = parsedOverlays.get(file) ?? loadOpenApiDocument(resolve(OVERLAY_DIRECTORY, file))
  parsedOverlays.set(file, parsed)
  return structuredClone(parsed)
}

/** The contract an instance with the test target serves: `document` with its overlays merged over it. */
export const testTargetContract = (document: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  OVERLAYS.reduce<Record<string, unknown>>((merged, file) => mergeOverlay(merged, overlay(file)) as Record<string, unknown>, {
    ...document,
  })
