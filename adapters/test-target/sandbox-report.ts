import type Router from '@koa/router'
import type { Context } from 'koa'
import { unauthorized } from '../../src/domain/errors.js'
import type { AuthState } from '../http/auth.js'
import { sendFailure } from '../http/error-response.js'
import { JSON_TYPE } from '../http/etag.js'
import { type ContractCoverage, type Coverage, declaredResponses, deprecatedOperations } from './contract-coverage.js'
import { type DeprecatedUse, deprecatedUsesOf } from './deprecated-uses.js'
import { FAULT_NAMES } from './fault-rule.js'
import { type Finding, findingsOf } from './findings.js'
import type { RequestJournal } from './request-journal.js'
import { type Warning, warningsOf } from './warnings.js'

export const SANDBOX_REPORT_PATH = '/v1/sandbox/report'

/** What GET /v1/sandbox/report answers (the contract's SandboxReport). */
export interface SandboxReport {
  /** How many requests the journal keeps, and how many it let go to keep the newest. */
  readonly journal: { readonly kept: number; readonly dropped: number }
  /** What the client did that it should not have, whatever it meant: none, for a correct client. */
  readonly findings: ReadonlyArray<Finding>
  /** What may be a mistake, or may be what the client meant. */
  readonly warnings: ReadonlyArray<Warning>
  /** Each deprecated operation called, once, with how many times. */
  readonly deprecatedOperations: ReadonlyArray<DeprecatedUse>
  readonly coverage: Coverage
}

interface ReportOptions {
  readonly journal: RequestJournal
  readonly coverage: ContractCoverage
  /** The contract the instance serves: the responses coverage counts and the deprecated operations are those it declares. */
  readonly served: Readonly<Record<string, unknown>>
  /** Whether faults are on, so that coverage counts them. */
  readonly faults: boolean
}

/**
 * GET /v1/sandbox/report: how the caller's client behaved (findings, warnings and the deprecated
 * operations it called, judged from its journal) and which of the contract's responses, error
 * codes and faults its requests reached since the sandbox was last reset.
 */
export const registerReportRoute = (router: Router, { journal, coverage, served, faults }: ReportOptions): void => {
  const declared = declaredResponses(served)
  const deprecated = deprecatedOperations(served)
  const faultNames = faults ? FAULT_NAMES : []
  router.get(SANDBOX_REPORT_PATH, (ctx: Context) => {
    const client = (ctx.state as AuthState).client
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    const kept = journal.kept(client.scope)
    ctx.type = JSON_TYPE
    const report: SandboxReport = {
      journal: { kept: kept.entries.length, dropped: kept.dropped },
      findings: findingsOf(kept.entries),
      warnings: warningsOf(kept.entries),
      deprecatedOperations: deprecatedUsesOf(kept.entries, deprecated),
      coverage: coverage.of(client.scope, declared, faultNames),
    }
    ctx.body = JSON.stringify(report)
  })
}
