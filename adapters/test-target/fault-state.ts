import type { OutgoingHttpHeaders } from 'node:http'
import type { ParameterizedContext } from 'koa'
import type { AuthState } from '../http/auth.js'
import type { LogFieldsState } from '../http/access-log.js'
import type { FailureState } from '../http/error-response.js'
import type { AppliedFault } from './fault-rule.js'

/** What the faults middleware decided for a request, for the request journal: the fault applied (or a scripted answer), and what it sent. */
export interface FaultState extends AuthState, LogFieldsState, FailureState {
  fault?: AppliedFault
  /** What a `truncated` answer sent after its status line: the headers sent whole, and the bytes of its body. */
  truncated?: { readonly headers: OutgoingHttpHeaders; readonly body: Buffer }
}

/** Tells the request's log line a field of it: what a fault did to the request. */
export const logField = (ctx: ParameterizedContext<FaultState>, name: string, value: string | null): void => {
  ctx.state.logFields = { ...ctx.state.logFields, [name]: value }
}

/** The fault applied, for the journal and the log line, where it is marked `forced` so that nobody mistakes it for a real failure. */
export const applied = (ctx: ParameterizedContext<FaultState>, fault: AppliedFault): void => {
  ctx.state.fault = fault
  ctx.state.logFields = { ...ctx.state.logFields, fault, forced: true }
}

/** What `Prefer` asked for and was applied: in `Preference-Applied`, and in the log line. */
export const preferenceApplied = (ctx: ParameterizedContext<FaultState>, value: string): void => {
  ctx.set('Preference-Applied', value)
  logField(ctx, 'preferenceApplied', value)
}
