import type Router from '@koa/router'
import type { Context, Middleware } from 'koa'
import type { Authenticator } from '../../src/domain/authenticator.js'
import type { OwnQuota } from './rate-limit.js'
import type { PetOperation } from './routes.js'

/** Who authentication knows (the configured keys and the extension's), and which paths it protects. */
export interface Authentication {
  readonly authenticator: Authenticator
  readonly protects: (path: string) => boolean
}

/** What buildApp hands an extension as it mounts it. */
export interface Mounting {
  /**
   * A router of the extension's own, where it declares its routes: tried only when none of the
   * app's matched, so that the app's requests never test the extension's routes.
   */
  readonly router: Router
  /** The app's own routes, to ask which of them a method and path name; by the first request it holds every one. */
  readonly appRoutes: Pick<Router, 'match'>
  readonly authentication: Authentication
  /** The contract the app serves, the extension's part merged in. */
  readonly served: Readonly<Record<string, unknown>>
}

/**
 * What an extension adds to a request, at named moments of it, each a middleware: what one decides
 * (the request's state, an answer), the rest of the request sees.
 */
export interface RequestHooks {
  /** Every request, first of all that may refuse it: it sees those authentication refuses too. */
  readonly beforeAuthentication?: Middleware
  /** Every request authentication let through, with its client, before the rate limit counts it. */
  readonly afterAuthentication?: Middleware
  /**
   * First on each operation, before its body is read, around the rest of it: what follows its
   * `next()` runs after the operation, once its answer is decided and before it is sent.
   */
  readonly operation?: (operation: PetOperation) => Middleware
  /** On each operation that reads a body, once the body is read and checked, around the rest of it. */
  readonly afterBody?: Middleware
}

/** What a mounted extension gives the app: its hooks, and how the app lists and limits its routes. */
export interface Mounted extends RequestHooks {
  /** What `GET /` lists of it, by name. */
  readonly links: Readonly<Record<string, string>>
  /** Requests the rate limit counts in a quota of their own, apart from the key's main one. */
  readonly quotaOf?: (ctx: Context) => OwnQuota | undefined
}

/**
 * A second driver of the same core, mounted on this HTTP adapter. The adapter never imports one: the
 * composition root builds it and hands it to buildApp, which mounts it. Without one, none of its code
 * is loaded and the default request path carries none of its middleware. Its failures are answered
 * as ErrorAnswers (http-failures.ts), and what it tells a request's log line is in LogFieldsState
 * (access-log.ts).
 */
export interface AppExtension {
  /** The keys it knows beside the configured ones. */
  readonly authenticator?: Authenticator
  /** Its part of the contract, merged into what /v1/openapi.json serves. */
  readonly contract: (served: Readonly<Record<string, unknown>>) => Record<string, unknown>
  /** Called once by buildApp: declares its routes on its own router, and gives its hooks. */
  readonly mount: (app: Mounting) => Mounted
}
