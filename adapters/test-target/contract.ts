import { resolve } from 'node:path'
import { loadOpenApiDocument, mergeOverlay } from '../http/openapi-document.js'

/** The test target's part of the contract: overlays of docs/openapi.yaml; this module runs from dist/adapters/test-target. */
const OVERLAY_DIRECTORY = resolve(__dirname, '../../../docs/openapi-test-target')

/** The parts of the test target an instance has on. */
export interface ContractParts {
  readonly sandboxes: boolean
  readonly faults: boolean
}

/** Each overlay, and when it applies: in this order, the one for both after the one for each. */
const OVERLAYS: ReadonlyArray<readonly [file: string, applies: (parts: ContractParts) => boolean]> = [
  ['faults.yaml', (parts) => parts.faults],
  ['sandboxes.yaml', (parts) => parts.sandboxes],
  ['sandbox-faults.yaml', (parts) => parts.sandboxes && parts.faults],
]

/** The contract an instance with these parts on serves: `document` with their overlays merged over it. */
export const testTargetContract = (document: Readonly<Record<string, unknown>>, parts: ContractParts): Record<string, unknown> =>
  OVERLAYS.filter(([, applies]) => applies(parts)).reduce<Record<string, unknown>>(
    (merged, [file]) => mergeOverlay(merged, loadOpenApiDocument(resolve(OVERLAY_DIRECTORY, file))) as Record<string, unknown>,
    { ...document },
  )
