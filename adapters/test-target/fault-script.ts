import { isDeepStrictEqual } from 'node:util'
import type { FaultRule, Operation } from './fault-rule.js'
import { isJsonObject } from './rule-values.js'
import { mulberry32 } from './seeded-random.js'

/** What a rule is matched against: the request's operation, its headers, path and query parameters, and its body once read. */
export interface ScriptedRequest {
  readonly operation: Operation
  /** A header's value by its lower-case name, as Node gives it (repeated lines joined with ", "). */
  readonly header: (name: string) => string | undefined
  /** A path parameter's value, decoded, by the contract's name for it (`petId`). */
  readonly param: (name: string) => string | undefined
  /** A query parameter's value, decoded; undefined when it is absent or given more than once. */
  readonly query: (name: string) => string | undefined
  /** The body, parsed and checked, once it is read; absent before. */
  readonly body?: { readonly value: unknown }
}

/** What `take` answers when the first rule that may match a request matches on its body, not yet read. */
export const NEEDS_BODY = 'needs-body'

/** Whether `rule` matches `request`: NEEDS_BODY when only its body, not yet read, can tell. */
const matches = (rule: FaultRule, request: ScriptedRequest): boolean | typeof NEEDS_BODY => {
  if (rule.operation !== request.operation) return false
  const headers = Object.entries(rule.when?.headers ?? {})
  if (!headers.every(([name, value]) => request.header(name) === value)) return false
  if (!Object.entries(rule.when?.params ?? {}).every(([name, value]) => request.param(name) === value)) return false
  if (!Object.entries(rule.when?.query ?? {}).every(([name, value]) => request.query(name) === value)) return false
  const wanted = rule.when?.body
  if (wanted === undefined) return true
  if (request.body === undefined) return NEEDS_BODY
  const body = request.body.value
  return (
    isJsonObject(body) && Object.entries(wanted).every(([name, value]) => Object.hasOwn(body, name) && isDeepStrictEqual(body[name], value))
  )
}

/**
 * The fault scripts of every sandbox, by the sandbox's name (the key's scope). Each request of a
 * sandbox takes the first rule it matches: while the rule's `after` is above 0, it counts that
 * down and the request passes untouched; then, with `chance`, a draw from the rule's generator (its
 * `seed` advances) decides whether the rule applies; a rule that applies counts `times` down, and
 * at 0 it is gone. A rule without `times` stays until the script is cleared.
 */
export interface FaultScripts {
  readonly replace: (sandbox: string, rules: ReadonlyArray<FaultRule>) => void
  readonly get: (sandbox: string) => ReadonlyArray<FaultRule>
  readonly clear: (sandbox: string) => void
  /**
   * The rule that applies to this request, if any, counted; NEEDS_BODY, with nothing counted, when
   * the first rule it may match matches on a body not yet given. The request is described only
   * when the sandbox has a script: most have none.
   */
  readonly take: (sandbox: string, request: () => ScriptedRequest) => FaultRule | undefined | typeof NEEDS_BODY
}

export const faultScripts = (): FaultScripts => {
  const scripts = new Map<string, FaultRule[]>()
  /** Counts the request that matched `rules[index]`, and answers the rule when it applies. */
  const count = (sandbox: string, rules: FaultRule[], index: number, rule: FaultRule): FaultRule | undefined => {
    if (rule.after !== undefined && rule.after > 0) {
      rules[index] = { ...rule, after: rule.after - 1 }
      return undefined
    }
    let drawn = rule
    if (rule.chance !== undefined && rule.seed !== undefined) {
      const draw = mulberry32(rule.seed)
      drawn = { ...rule, seed: draw.next }
      rules[index] = drawn
      if (draw.value >= rule.chance) return undefined
    }
    if (drawn.times === undefined) return rule
    if (drawn.times <= 1) rules.splice(index, 1)
    else rules[index] = { ...drawn, times: drawn.times - 1 }
    if (rules.length === 0) scripts.delete(sandbox)
    return rule
  }
  return {
    replace: (sandbox, rules) => {
      if (rules.length === 0) scripts.delete(sandbox)
      else
        scripts.set(
          sandbox,
          rules.map((rule) => ({ ...rule })),
        )
    },
    get: (sandbox) => (scripts.get(sandbox) ?? []).map((rule) => ({ ...rule })),
    clear: (sandbox) => void scripts.delete(sandbox),
    take: (sandbox, describe) => {
      const rules = scripts.get(sandbox)
      if (rules === undefined) return undefined
      const request = describe()
      for (const [index, rule] of rules.entries()) {
        const match = matches(rule, request)
        if (match === NEEDS_BODY) return NEEDS_BODY
        if (match) return count(sandbox, rules, index, rule)
      }
      return undefined
    },
  }
}
