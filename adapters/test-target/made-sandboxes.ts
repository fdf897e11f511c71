import type Router from '@koa/router'
import * as E from 'fp-ts/Either'
import type { Sandboxes } from './per-key-sandboxes.js'
import { unauthorized } from '../../src/domain/errors.js'
import type { AuthState } from '../http/auth.js'
import { sendFailure } from '../http/error-response.js'
import { JSON_TYPE } from '../http/etag.js'
import type { ContractCoverage } from './contract-coverage.js'
import type { FaultScripts } from './fault-script.js'
import type { RequestJournal } from './request-journal.js'

export const SANDBOXES_PATH = '/v1/sandboxes'
const SANDBOX_PATH = '/v1/sandbox'

/**
 * The journal, the fault scripts and the contract coverage, keeping nothing for a sandbox that has ended: when a made
 * sandbox ends (asked to, or expired), what they hold for it goes, and a request of it still on its
 * way (a delayed one, a script being read) adds nothing back.
 */
export const keptWhileOpen = (
  sandboxes: Sandboxes,
  journal: RequestJournal,
  scripts: FaultScripts,
  coverage: ContractCoverage,
): { readonly journal: RequestJournal; readonly scripts: FaultScripts } => {
  sandboxes.onEnd((sandbox) => {
    journal.clear(sandbox)
    scripts.clear(sandbox)
    coverage.clear(sandbox)
  })
  return {
    journal: {
      ...journal,
      arrive: (sandbox, request) => {
        // A request of a sandbox that ended as it arrived leaves nothing, not even a journal for it.
        if (!sandboxes.isOpen(sandbox)) return { file: () => undefined }
        const place = journal.arrive(sandbox, request)
        return { file: () => (sandboxes.isOpen(sandbox) ? place.file() : undefined) }
      },
    },
    scripts: { ...scripts, replace: (sandbox, rules) => (sandboxes.isOpen(sandbox) ? scripts.replace(sandbox, rules) : undefined) },
  }
}

/**
 * POST /v1/sandboxes makes a sandbox with a key of its own, answered this once (201); any valid key
 * may ask, a made one too. DELETE /v1/sandbox ends the caller's made sandbox and its key (204); a
 * configured key's sandbox cannot be ended (409). Neither reads a body.
 */
export const registerMadeSandboxRoutes = (router: Router, sandboxes: Sandboxes): void => {
  router.post('createSandbox', SANDBOXES_PATH, async (ctx) => {
    const made = await sandboxes.make()()
    if (E.isLeft(made)) return sendFailure(ctx, made.left)
    const { key, client, idleSeconds } = made.right
    ctx.status = 201
    ctx.set('Location', SANDBOX_PATH)
    ctx.type = JSON_TYPE
    ctx.body = JSON.stringify({ key, keyId: client.keyId, idleSeconds })
  })

  router.delete('deleteSandbox', SANDBOX_PATH, async (ctx) => {
    const client = (ctx.state as AuthState).client
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    const ended = await sandboxes.end(client)()
    if (E.isLeft(ended)) return sendFailure(ctx, ended.left)
    ctx.status = 204
  })
}
