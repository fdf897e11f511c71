import type { Context, Middleware, Next, ParameterizedContext } from 'koa'
import { sendFailure } from '../http/error-response.js'
import { type FaultRule, type Operation, SCRIPTED_ANSWER } from './fault-rule.js'
import { type FaultPreferences, readFaultPreferences } from './fault-preferences.js'
import { type FaultScripts, NEEDS_BODY, type ScriptedRequest } from './fault-script.js'
import { applied, type FaultState, preferenceApplied } from './fault-state.js'
import { type FaultSource, type ForcedStatus, forcedFailure } from './failures.js'
import { withInsertDelay } from './insert-delay.js'
import type { JsonBodyState } from '../http/json-body.js'
import { isNetworkFault, resetConnection, sendTruncated } from './network-faults.js'
import { sendAnswer } from './scripted-answer.js'

interface FaultsOptions {
  /** Aborted when shutdown begins: a delay still running ends then, and none starts after. */
  readonly shutdown?: AbortSignal
  /** Each sandbox's fault script. */
  readonly scripts: FaultScripts
}

/** The faults middleware of the pet routes (see `faults`). */
interface Faults {
  /** Runs first on each pet operation, before the body is read. */
  readonly before: (operation: Operation) => Middleware<FaultState>
  /** Runs on a create once its body is read and checked; only with fault scripts, whose rules may match the body. */
  readonly afterBody: Middleware<FaultState & JsonBodyState>
}

/** A request as a fault script's rules see it; its body once read, when given. */
const scriptedRequest = (ctx: Context, operation: Operation, body?: { readonly value: unknown }): ScriptedRequest => ({
  operation,
  header: (name) => {
    const value = ctx.req.headers[name]
    return Array.isArray(value) ? value.join(', ') : value
  },
  // The route's parameters, which the router decoded before the route's first middleware (this one) runs.
  param: (name) => (ctx as Context & { readonly params?: Readonly<Record<string, string>> }).params?.[name],
  query: (name) => {
    const value = ctx.query[name]
    return typeof value === 'string' ? value : undefined
  },
  ...(body === undefined ? {} : { body }),
})

/**
 * Forced failures, scripted answers and delays for client developers (PETSTORE_TEST_TARGET=on), one
 * middleware per pet operation, after authentication and the rate limit and before the body is
 * read. A request's own `Prefer: fault` wins over the sandbox's script and does not consume it;
 * otherwise the first rule of the script the request matches is counted, and applies or lets it
 * pass (scripts.take). When that rule matches on the body, nothing is decided until the body is
 * read and checked (`afterBody`): a body refused is answered as always, and takes no rule. An Error
 * fault or a scripted answer claims no Idempotency-Key and touches no store, nor reads the body
 * unless its rule matched it; `reset` neither; `reset-after`, `truncated` and an answer
 * `afterOperation` carry the operation out, then break or replace its answer. A delay comes first,
 * except on a create with an Idempotency-Key in a sandbox, where it runs after the key is claimed,
 * and with an answer `afterOperation`, where it runs between the operation and the answer.
 * `Preference-Applied` lists what `Prefer` asked for and was applied, delay first.
 */
export const faults = ({ shutdown, scripts }: FaultsOptions): Faults => {
  // One listener on the signal for every delay in progress, however many there are.
  const cuts = new Set<() => void>()
  shutdown?.addEventListener('abort', () => cuts.forEach((cut) => cut()), { once: true })
  /** Resolves true when the whole delay passed, false when shutdown cut it short. */
  const wait = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (shutdown?.aborted === true) return resolve(false)
      const timer = setTimeout(() => {
        cuts.delete(cut)
        resolve(true)
      }, ms)
      const cut = (): void => {
        clearTimeout(timer)
        cuts.delete(cut)
        resolve(false)
      }
      cuts.add(cut)
    })
  /** The creates whose script waits for their body. */
  const awaitingBody = new WeakSet<Context>()

  /** Carries out what `Prefer` and the script's `rule` ask of this request, around the rest of its route. */
  const apply = async (
    ctx: ParameterizedContext<FaultState>,
    next: Next,
    operation: Operation,
    asked: FaultPreferences,
    rule?: FaultRule,
  ): Promise<void> => {
    const by: FaultSource = asked.fault === undefined ? 'script' : 'prefer'
    const fault = asked.fault ?? rule?.fault
    // A rule with an answer has no fault, and a request whose Prefer asked for one took no rule.
    const answer = rule?.answer
    const answerAfterOperation = answer !== undefined && rule?.afterOperation === true
    const delayMs = asked.delayMs ?? rule?.delay
    const retryAfterSeconds = asked.retryAfterSeconds ?? rule?.retryAfter
    // A keyed create in a sandbox waits between its claim and its insert: a retry meanwhile meets the claim.
    const afterClaim = operation === 'createPet' && ctx.get('Idempotency-Key') !== '' && fault === undefined && answer === undefined
    let delayed = false
    if (delayMs !== undefined && !afterClaim && !answerAfterOperation) delayed = await wait(delayMs)
    const preferences = [
      ...(delayed && asked.delayMs !== undefined ? [`delay=${delayMs}`] : []),
      ...(asked.fault === undefined ? [] : [`fault=${asked.fault}`]),
      ...(asked.fault !== undefined && asked.retryAfterSeconds !== undefined && (asked.fault === '429' || asked.fault === '503')
        ? [`retry-after=${asked.retryAfterSeconds}`]
        : []),
    ]
    if (preferences.length > 0) preferenceApplied(ctx, preferences.join(', '))
    if (fault !== undefined && !isNetworkFault(fault)) {
      applied(ctx, fault)
      return sendFailure(ctx, forcedFailure(Number(fault) as ForcedStatus, by, retryAfterSeconds))
    }
    if (fault === 'reset') {
      applied(ctx, fault)
      return resetConnection(ctx)
    }
    if (answer !== undefined) {
      applied(ctx, SCRIPTED_ANSWER)
      if (!answerAfterOperation) return sendAnswer(ctx, answer)
      // What every answer carries, before the operation adds its own.
      const kept = { ...ctx.res.getHeaders() }
      await next()
      if (delayMs !== undefined && (await wait(delayMs)) && asked.delayMs !== undefined) kept['preference-applied'] = `delay=${delayMs}`
      return sendAnswer(ctx, answer, kept)
    }
    if (afterClaim && delayMs !== undefined) {
      // Listed only once it ran: a create refused before its insert (a bad body, a key in use) waited for nothing.
      const delayBeforeInsert = async (): Promise<void> => {
        if ((await wait(delayMs)) && asked.delayMs !== undefined) preferenceApplied(ctx, `delay=${delayMs}`)
      }
      await withInsertDelay(delayBeforeInsert, next)
    } else {
      await next()
    }
    if (fault === 'reset-after' || fault === 'truncated') applied(ctx, fault)
    if (fault === 'reset-after') resetConnection(ctx)
    if (fault === 'truncated') sendTruncated(ctx)
  }

  return {
    before: (operation) => (ctx, next) => {
      const asked = readFaultPreferences(ctx.get('Prefer') || undefined)
      const sandbox = ctx.state.client?.scope
      const rule =
        asked.fault !== undefined || sandbox === undefined ? undefined : scripts.take(sandbox, () => scriptedRequest(ctx, operation))
      if (rule === NEEDS_BODY) {
        awaitingBody.add(ctx)
        return next()
      }
      // Nothing asked and no rule applies (most requests): on at once, without apply's await.
      if (rule === undefined && asked.fault === undefined && asked.delayMs === undefined) return next()
      return apply(ctx, next, operation, asked, rule)
    },
    afterBody: (ctx, next) => {
      const sandbox = ctx.state.client?.scope
      if (awaitingBody.has(ctx) && sandbox !== undefined) {
        const asked = readFaultPreferences(ctx.get('Prefer') || undefined)
        const rule = scripts.take(sandbox, () => scriptedRequest(ctx, 'createPet', { value: ctx.state.body }))
        // With the body given, no rule waits for it.
        return apply(ctx, next, 'createPet', asked, rule === NEEDS_BODY ? undefined : rule)
      }
      return next()
    },
  }
}
