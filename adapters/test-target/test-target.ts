import type { Context, Middleware } from 'koa'
import { DEFAULT_SANDBOX_BUDGET, type SandboxBudget } from '../../src/store/sandbox-budget.js'
import type { DataSets } from '../../src/store/data-sets.js'
import type { MadeKeys } from './made-keys.js'
import type { AppExtension } from '../http/extension.js'
import { type FailureState, sendFailure } from '../http/error-response.js'
import type { Redact } from '../http/key-redaction.js'
import type { OwnQuota } from '../http/rate-limit.js'
import { testTargetContract } from './contract.js'
import { contractCoverage } from './contract-coverage.js'
import { faultScripts } from './fault-script.js'
import { sandboxFull } from './failures.js'
import { faults } from './faults.js'
import { INSPECTOR_PATH, registerInspectorRoutes } from './inspector-routes.js'
import { journalRequests, keepingRequests, operationsOf } from './keeping-requests.js'
import { keptWhileOpen, registerMadeSandboxRoutes, SANDBOXES_PATH } from './made-sandboxes.js'
import { perKeySandboxes } from './per-key-sandboxes.js'
import { journalRefusedCredentials } from './refused-credentials.js'
import { requestJournal } from './request-journal.js'
import { registerReportRoute, SANDBOX_REPORT_PATH } from './sandbox-report.js'
import { registerSandboxClockRoutes, SANDBOX_CLOCK_PATH } from './sandbox-clock.js'
import {
  chooseSandbox,
  registerSandboxRoutes,
  SANDBOX_FAULTS_PATH,
  SANDBOX_REQUEST_COUNT_PATH,
  SANDBOX_REQUESTS_PATH,
  SANDBOX_RESET_PATH,
} from './sandboxes.js'

/** What an open inspector polls. */
const READ_ONLY_PATHS = [SANDBOX_REQUESTS_PATH, SANDBOX_REQUEST_COUNT_PATH, SANDBOX_REPORT_PATH]

/**
 * With a rate limit on, the quota of reading a sandbox's journal (or counting in it, or its report)
 * and of its clock, per key, apart from the key's own: an open inspector polls twice a second (120
 * a minute), and a test's checks must not spend the key's quota, nor a client at its limit be kept
 * from moving its clock past the window; but a loop of reads is refused. Its windows run on real
 * time, not the sandbox's clock (its counts are no sandbox's), so that moving the clock ends none.
 */
export const SANDBOX_QUOTA: OwnQuota = { name: 'sandbox', limit: 600 }

interface TestTargetOptions {
  /** The data sets of the sandboxes, one per key, and the keys of the sandboxes made at run time. */
  readonly space: DataSets
  readonly madeKeys: MadeKeys
  /**
   * What each sandbox may hold of journal, fault script and coverage (DEFAULT_SANDBOX_BUDGET when
   * omitted); its pets and records are the space's to bound.
   */
  readonly budget?: SandboxBudget
  /** Hides the configured API keys, and those made at run time, in what the journal keeps. */
  readonly redact: Redact
  readonly maxBodyBytes: number
  /** Aborted when shutdown begins: forced delays end at once. */
  readonly shutdown?: AbortSignal
}

/** `first`, then `second` as the rest of the request that `first` runs on: their promises as they are, no frame of its own. */
const both =
  <S>(first: Middleware<S>, second: Middleware<S>): Middleware<S> =>
  (ctx, next) =>
    // A middleware is typed to return `any`; each given here returns a promise (it is async, or answers its next's).
    first(ctx, () => second(ctx, next) as Promise<unknown>) as unknown

/**
 * A create its sandbox had no room for, answered in the sandbox's words (the HTTP adapter's are the
 * store's): innermost, so that a fault that breaks the answer breaks this one.
 */
const sandboxFullWording: Middleware<FailureState> = (ctx, next) =>
  // On every create: a promise chained, not an async function (docs/adr/0106-use-cases-are-fp-ts-pipelines-whose-per-call-steps-are-plain.md).
  next().then(() => {
    const failure = ctx.state.failure
    if (failure?._tag === 'StoreFull') sendFailure(ctx, sandboxFull(failure.limitBytes))
  })

/**
 * The test target for client developers (PETSTORE_TEST_TARGET=on), a second driver of the same
 * core, whole: per-key sandboxes with their journal, report, clock and inspector, forced failures
 * and delays, and each sandbox's fault script. The HTTP adapter mounts what this returns
 * (AppExtension): the journal of refused credentials before authentication, the journal after it,
 * on each operation the caller's sandbox then the faults, and once a create's body is read the
 * fault rules that match it.
 */
export const testTarget = (options: TestTargetOptions): AppExtension => {
  const sandboxes = perKeySandboxes(options.space, options.madeKeys)
  // Each sandbox's journal and fault script: in memory, like the sandboxes, and gone with a made
  // sandbox. What the report counts of the contract, since each sandbox was last reset: fed by the journal.
  const budget = options.budget ?? DEFAULT_SANDBOX_BUDGET
  const coverage = contractCoverage(budget.coverageBytes)
  const { journal, scripts } = keptWhileOpen(sandboxes, coverage.noting(requestJournal(budget.journalBytes)), faultScripts(), coverage)
  const forced = faults({ scripts, ...(options.shutdown === undefined ? {} : { shutdown: options.shutdown }) })
  const { maxBodyBytes } = options
  return {
    authenticator: sandboxes.madeKeys,
    contract: testTargetContract,
    mount: ({ router, appRoutes, authentication, served }) => {
      registerSandboxRoutes(router, { sandboxes, journal, coverage, maxBodyBytes, scriptBytes: budget.scriptBytes, scripts })
      registerSandboxClockRoutes(router, { sandboxes, maxBodyBytes })
      registerMadeSandboxRoutes(router, sandboxes)
      registerReportRoute(router, { journal, coverage, served, faults: true })
      registerInspectorRoutes(router)
      // Requests kept in their sandbox's journal, dated by the sandbox's clock.
      const keep = keepingRequests(journal, { redact: options.redact, operationOf: operationsOf(appRoutes), clockOf: sandboxes.clockOf })
      return {
        beforeAuthentication: journalRefusedCredentials(keep, authentication),
        afterAuthentication: journalRequests(keep),
        operation: (operation) => both(chooseSandbox(sandboxes), forced.before(operation)),
        afterBody: both(forced.afterBody, sandboxFullWording),
        links: {
          inspector: INSPECTOR_PATH,
          sandboxes: SANDBOXES_PATH,
          sandboxReset: SANDBOX_RESET_PATH,
          sandboxClock: SANDBOX_CLOCK_PATH,
          sandboxRequests: SANDBOX_REQUESTS_PATH,
          sandboxReport: SANDBOX_REPORT_PATH,
          sandboxFaults: SANDBOX_FAULTS_PATH,
        },
        quotaOf: (ctx: Context) =>
          (['GET', 'HEAD'].includes(ctx.method) && READ_ONLY_PATHS.includes(ctx.path)) || ctx.path === SANDBOX_CLOCK_PATH
            ? SANDBOX_QUOTA
            : undefined,
      }
    },
  }
}
