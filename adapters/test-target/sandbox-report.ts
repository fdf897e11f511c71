import type Router from '@koa/router'
import type { Context } from 'koa'
import { unauthorized } from '../../src/domain/errors.js'
import type { AuthState } from '../http/auth.js'
import { sendFailure } from '../http/error-response.js'
import { JSON_TYPE } from '../http/etag.js'
import { type ContractCoverage, type Coverage, declaredResponses } from './contract-coverage.js'
import { FAULT_NAMES } from './fault-rule.js'
import { type Finding, findingsOf } from './findings.js'
import type { RequestJournal } from './request-journal.js'

export const SANDBOX_REPORT_PATH = '/v1/sandbox/report'

/** What GET /v1/sandbox/report answers (the contract's SandboxReport). */
export interface SandboxReport {
  /** How many requests the journal keeps, and how many it let go to keep the newest. */
  readonly journal: { readonly kept: number; readonly dropped: number }
  readonly findings: ReadonlyArray<Finding>
  readonly coverage: Coverage
}

interface ReportOptions {
  readonly journal: RequestJournal
  readonly coverage: ContractCoverage
  /** The contract the instance serves: the responses coverage counts are those it declares. */
  readonly served: Readonly<Record<string, unknown>>
  /** Whether faults are on, so that coverage counts them. */
  readonly faults: boolean
}

/**
 * GET /v1/sandbox/report: how the caller's client behaved (findings judged from its journal) and
 * which of the contract's responses, error codes and faults its requests reached since the sandbox
 * was last reset.
 */
export const registerReportRoute = (router: Router, { journal, coverage, served, faults }: ReportOptions): void => {
  const declared = declaredResponses(served)
  const faultNames = faults ? FAULT_NAMES : []
  router.get(SANDBOX_REPORT_PATH, (ctx: Context) => {
    const client = (ctx.state as AuthState).client
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    const kept = journal.kept(client.scope)
    ctx.type = JSON_TYPE
    const report: SandboxReport = {
      journal: { kept: kept.entries.length, dropped: kept.dropped },
      findings: findingsOf(kept.entries),
      coverage: coverage.of(client.scope, declared, faultNames),
    }
    ctx.body = JSON.stringify(report)
  })
}
