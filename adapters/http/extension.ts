import type Router from '@koa/router'
import type { Context, Middleware } from 'koa'
import type { Authenticator } from '../../src/domain/authenticator.js'
import type { OwnQuota } from './rate-limit.js'
import type { PetOperation } from './routes.js'

/** Who authentication knows (the configured keys and the made ones), and which paths it protects. */
export interface Authentication {
  readonly authenticator: Authenticator
  readonly protects: (path: string) => boolean
}

/**
 * A second driver of the same core, mounted on this HTTP adapter: the test target (sandboxes,
 * faults, journal, inspector). This adapter never imports one; the composition root builds it and
 * hands it to buildApp, which puts each part where it belongs. Without one, none of its code is
 * loaded and the default request path carries none of its middleware.
 */
export interface AppExtension {
  /** The keys it makes at run time, known beside the configured ones. */
  readonly authenticator?: Authenticator
  /**
   * Before authentication: sees the requests it refuses too (the journal keeps those that carried a
   * sandbox's key in a form it refuses); given the app's router and what authentication uses.
   */
  readonly beforeAuthentication?: (router: Router, authentication: Authentication) => Middleware
  /**
   * After authentication, before the rate limit: sees every request with its client (the journal);
   * given the app's router, which by then holds every route.
   */
  readonly afterAuthentication: (router: Router) => ReadonlyArray<Middleware>
  /** After the rate limit, before routing (choosing the caller's sandbox). */
  readonly beforeRouting: ReadonlyArray<Middleware>
  /** First on each pet operation, before its body is read (forced failures and delays). */
  readonly beforeOperation?: (operation: PetOperation) => Middleware
  /** On createPet once its body is read and checked (fault rules that match the body). */
  readonly afterCreateBody?: Middleware
  /** Declares its own routes; given the contract the app serves. */
  readonly registerRoutes: (router: Router, served: Readonly<Record<string, unknown>>) => void
  /** What `GET /` lists of it, by name. */
  readonly links: Readonly<Record<string, string>>
  /** Requests the rate limit counts in a quota of their own, apart from the key's main one (an open inspector polling the journal). */
  readonly quotaOf: (ctx: Context) => OwnQuota | undefined
  /** Its part of the contract, merged into what /v1/openapi.json serves. */
  readonly contract: (served: Record<string, unknown>) => Record<string, unknown>
}
