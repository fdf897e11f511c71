import type { OutgoingHttpHeaders } from 'node:http'
import type { Context, Middleware, Next, ParameterizedContext } from 'koa'
import { safeIntegerText } from '../../src/domain/integer-text.js'
import type { AuthState } from '../http/auth.js'
import type { LogFieldsState } from '../http/access-log.js'
import { type FailureState, sendFailure } from '../http/error-response.js'
import {
  type AppliedFault,
  FAULT_NAMES,
  type FaultName,
  type FaultRule,
  MAX_DELAY_MS,
  MAX_RETRY_AFTER_SECONDS,
  NETWORK_FAULTS,
  type Operation,
  SCRIPTED_ANSWER,
} from './fault-rule.js'
import { type FaultScripts, NEEDS_BODY, type ScriptedRequest } from './fault-script.js'
import { type FaultSource, type ForcedStatus, forcedFailure } from './failures.js'
import { withInsertDelay } from './insert-delay.js'
import type { JsonBodyState } from '../http/json-body.js'
import { parsePrefer } from './prefer.js'
import { rawHeadLines } from '../http/raw-head.js'
import { sendAnswer } from './scripted-answer.js'

export { MAX_DELAY_MS } from './fault-rule.js'

/** What a request asks of this service in `Prefer`; a preference it does not understand is absent. */
interface FaultPreferences {
  readonly delayMs?: number
  readonly fault?: FaultName
  readonly retryAfterSeconds?: number
}

const NOTHING_PREFERRED: FaultPreferences = {}

/**
 * `delay` (an integer from 0 to MAX_DELAY_MS, in the one integer syntax of the API), `fault` (429,
 * 500, 502, 503, 504, `reset`, `reset-after` or `truncated`) and `retry-after` (0 to
 * MAX_RETRY_AFTER_SECONDS). Any other preference, or one of these out of range,
 * is ignored, as RFC 7240 asks; a repeated one counts once, in its first occurrence.
 */
export const readFaultPreferences = (header: string | undefined): FaultPreferences => {
  // Most requests send no Prefer at all.
  if (header === undefined) return NOTHING_PREFERRED
  const preferences = parsePrefer(header)
  const delayMs = safeIntegerText(preferences.get('delay'), 0, MAX_DELAY_MS)
  const asked = preferences.get('fault')
  const fault = asked !== undefined && FAULT_NAMES.includes(asked) ? (asked as FaultName) : undefined
  const retryAfterSeconds = safeIntegerText(preferences.get('retry-after'), 0, MAX_RETRY_AFTER_SECONDS)
  return {
    ...(delayMs === undefined ? {} : { delayMs }),
    ...(fault === undefined ? {} : { fault }),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  }
}

interface FaultsOptions {
  /** Aborted when shutdown begins: a delay still running ends then, and none starts after. */
  readonly shutdown?: AbortSignal
  /** Each sandbox's fault script. */
  readonly scripts: FaultScripts
}

/** What the faults middleware decided for a request, for the request journal: the fault applied (or a scripted answer), and what it sent. */
export interface FaultState extends AuthState, LogFieldsState, FailureState {
  fault?: AppliedFault
  /** What a `truncated` answer sent after its status line: the headers sent whole, and the bytes of its body. */
  truncated?: { readonly headers: OutgoingHttpHeaders; readonly body: Buffer }
}

const isNetworkFault = (fault: FaultName): fault is (typeof NETWORK_FAULTS)[number] =>
  (NETWORK_FAULTS as ReadonlyArray<string>).includes(fault)

/** Tells the request's log line a field of it: what a fault did to the request. */
const logField = (ctx: ParameterizedContext<FaultState>, name: string, value: string | null): void => {
  ctx.state.logFields = { ...ctx.state.logFields, [name]: value }
}

/** The fault applied, for the journal and the log line, where it is marked `forced` so that nobody mistakes it for a real failure. */
const applied = (ctx: ParameterizedContext<FaultState>, fault: AppliedFault): void => {
  ctx.state.fault = fault
  ctx.state.logFields = { ...ctx.state.logFields, fault, forced: true }
}

/** What `Prefer` asked for and was applied: in `Preference-Applied`, and in the log line. */
const preferenceApplied = (ctx: ParameterizedContext<FaultState>, value: string): void => {
  ctx.set('Preference-Applied', value)
  logField(ctx, 'preferenceApplied', value)
}

/** The connection is reset (TCP RST): the client sees ECONNRESET, and no byte of an answer. */
const resetConnection = (ctx: ParameterizedContext<FaultState>): void => {
  ctx.respond = false
  logField(ctx, 'status', null)
  ctx.req.socket.resetAndDestroy()
}

/**
 * The answer the operation gave, cut short. With a body: its status line and headers,
 * `Content-Length` of the whole body, then half the body. Without one (to HEAD, a 304), where
 * that would be a whole answer: its status line and the first half of its header lines, never the
 * empty line that ends the head, written to the socket (Node's response writes a head only whole).
 * Then the socket is destroyed, not just ended: the server keeps no connection whose client holds
 * its own half open. What was sent is kept for the request journal.
 */
const sendTruncated = (ctx: ParameterizedContext<FaultState>): void => {
  const text = typeof ctx.body === 'string' ? ctx.body : ctx.body === undefined || ctx.body === null ? '' : JSON.stringify(ctx.body)
  const length = Buffer.byteLength(text)
  const headers: OutgoingHttpHeaders = {
    ...ctx.response.headers,
    ...(length > 0 ? { 'content-length': String(length) } : {}),
    connection: 'close',
  }
  ctx.respond = false
  const socket = ctx.req.socket
  const close = (): void => void socket.destroy()
  if (ctx.method !== 'HEAD' && length > 0) {
    const body = Buffer.from(text).subarray(0, Math.floor(length / 2))
    ctx.state.truncated = { headers, body }
    ctx.res.writeHead(ctx.status, headers)
    ctx.res.write(body, close)
    return
  }
  const entries = Object.entries(headers)
  const sent = Object.fromEntries(entries.slice(0, Math.floor(entries.length / 2)))
  ctx.state.truncated = { headers: sent, body: Buffer.alloc(0) }
  socket.write(
    rawHeadLines(ctx.status, sent)
      .map((line) => `${line}\r\n`)
      .join(''),
    close,
  )
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
      const rule = asked.fault !== undefined || sandbox === undefined ? undefined : scripts.take(sandbox, scriptedRequest(ctx, operation))
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
        const rule = scripts.take(sandbox, scriptedRequest(ctx, 'createPet', { value: ctx.state.body }))
        // With the body given, no rule waits for it.
        return apply(ctx, next, 'createPet', asked, rule === NEEDS_BODY ? undefined : rule)
      }
      return next()
    },
  }
}
