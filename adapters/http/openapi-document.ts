import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse } from 'yaml'

/** docs/openapi.yaml, the contract; this module runs from dist/adapters/http after compilation. */
export const OPENAPI_FILE = resolve(__dirname, '../../../docs/openapi.yaml')

/** Reads the contract; the service serves it as JSON and the tests check responses against it. */
export const loadOpenApiDocument = (file: string = OPENAPI_FILE): Record<string, unknown> =>
  parse(readFileSync(file, 'utf8')) as Record<string, unknown>

/** The optional features that change what an instance offers, and so what its contract says. */
export interface ServedFeatures {
  /** Per-key sandboxes: the reset operation exists. */
  readonly sandboxes: boolean
  /** Forced failures: the pet operations read `Prefer`. */
  readonly faults: boolean
}

/** The feature names docs/openapi.yaml uses; `sandbox-faults` is on when both of its parts are. */
const featureOn = (features: ServedFeatures, feature: unknown): boolean => {
  switch (feature) {
    case 'sandboxes':
    case 'faults':
      return features[feature]
    case 'sandbox-faults':
      return features.sandboxes && features.faults
    default:
      throw new Error(`docs/openapi.yaml names an unknown feature: ${JSON.stringify(feature)}`)
  }
}

/** On a part of docs/openapi.yaml (an operation, parameter, header, tag...): it exists only when that feature is on. */
const FEATURE = 'x-petstore-feature'
/** On a part: `{ <feature>: { <field>: <value> } }`, fields that replace the part's own when that feature is on. */
const FEATURE_OVERRIDES = 'x-petstore-feature-overrides'

const REMOVED = Symbol('removed')

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A copy of a JSON tree in which `rebuild` decides what becomes of each object once its members are copied. */
const mapObjects = (node: unknown, rebuild: (copy: Record<string, unknown>) => Record<string, unknown> | typeof REMOVED): unknown => {
  if (Array.isArray(node)) return node.map((item) => mapObjects(item, rebuild)).filter((item) => item !== REMOVED)
  if (!isObject(node)) return node
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    const kept = mapObjects(value, rebuild)
    if (kept !== REMOVED) copy[key] = kept
  }
  return rebuild(copy)
}

/** Whether a local `$ref` (`#/components/...`) names something in the document. */
const resolves = (document: unknown, ref: string): boolean => {
  if (!ref.startsWith('#/')) return true
  let node = document
  for (const token of ref.slice(2).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~')
    if (!isObject(node) || !Object.hasOwn(node, key)) return false
    node = node[key]
  }
  return true
}

/**
 * The contract an instance serves, derived from docs/openapi.yaml (the one source) at start: the parts
 * marked `x-petstore-feature` are kept only when that feature is on, `x-petstore-feature-overrides`
 * apply for the features that are on, every reference to a removed part goes with it, and no
 * `x-petstore-` extension is left. Pure: the document given is not changed.
 */
export const servedOpenApiDocument = (document: Readonly<Record<string, unknown>>, features: ServedFeatures): Record<string, unknown> => {
  const isOn = (feature: unknown): boolean => featureOn(features, feature)
  const shaped = mapObjects(document, (copy) => {
    const feature = copy[FEATURE]
    if (feature !== undefined && !isOn(feature)) return REMOVED
    const part = Object.fromEntries(Object.entries(copy).filter(([key]) => key !== FEATURE && key !== FEATURE_OVERRIDES))
    const overrides = copy[FEATURE_OVERRIDES]
    for (const [name, fields] of Object.entries(isObject(overrides) ? overrides : {})) {
      if (!isObject(fields)) throw new Error(`docs/openapi.yaml: ${FEATURE_OVERRIDES}.${name} must hold fields`)
      if (isOn(name)) Object.assign(part, fields)
    }
    return part
  })
  return mapObjects(shaped, (copy) => (typeof copy.$ref === 'string' && !resolves(shaped, copy.$ref) ? REMOVED : copy)) as Record<
    string,
    unknown
  >
}
