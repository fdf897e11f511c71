import { writeFileSync } from 'node:fs'
import type { Middleware } from 'koa'
import type { Logger } from 'pino'
import * as httpServer from '../../adapters/http/http-server.js'
import * as metrics from '../../adapters/http/metrics.js'

/**
 * BENCH_SWITCH (one `off` name of FEATURES, scenarios.ts) makes that feature switch on and off in
 * turns of TURN_MS inside one process, which counts its own CPU time and the requests that arrived
 * in each state; on SIGUSR2 it writes both to BENCH_SWITCH_REPORT and counts afresh. Both states
 * run the same switch, so their difference is the feature's cost alone, free of how fast this one
 * process runs: two processes of the same build can differ by more than most features cost.
 */

/** Long enough that the requests in flight at a switch (16 at most) are a small part of a turn's. */
const TURN_MS = 200

export interface SwitchReport {
  /** Counts from 1 with each report, so that its reader knows a fresh one. */
  readonly sequence: number
  readonly on: { readonly cpuUs: number; readonly requests: number }
  readonly off: { readonly cpuUs: number; readonly requests: number }
}

let on = true

/** A middleware that runs `whenOn` while the feature is on, `whenOff` while it is off. */
export const switching =
  (whenOn: Middleware, whenOff: Middleware): Middleware =>
  (ctx, next) =>
    (on ? whenOn : whenOff)(ctx, next) as unknown

/** A function that calls `whenOn` while the feature is on, `whenOff` while it is off. */
export const switchingCall =
  <A extends ReadonlyArray<unknown>, R>(whenOn: (...args: A) => R, whenOff: (...args: A) => R) =>
  (...args: A): R =>
    on ? whenOn(...args) : whenOff(...args)

/** Replaces `module`'s export `name` in this process: CommonJS exports are plain properties. */
export const replace = <M extends object, K extends keyof M>(module: M, name: K, value: M[K]): void =>
  void Object.defineProperty(module, name, { value })

/** Metrics observed while the feature is on only (GET /metrics and the process metrics stay). */
export const switchMetrics = (): void => {
  const create = metrics.createMetrics
  replace(metrics, 'createMetrics', () => {
    const real = create()
    return { registry: real.registry, observe: switchingCall(real.observe, () => undefined) }
  })
}

/** The request line at `info` while the feature is on, nothing below `warn` while it is off. */
export const switchLog =
  (logger: Logger): (() => void) =>
  () => {
    logger.level = on ? 'info' : 'warn'
  }

/** Starts the turns and the counting; `onSwitch` follows each change of state. */
export const startSwitching = (report: string, onSwitch: () => void = () => undefined): void => {
  const counted = { on: { cpuUs: 0, requests: 0 }, off: { cpuUs: 0, requests: 0 } }
  const create = httpServer.createHttpServer
  replace(httpServer, 'createHttpServer', (...args) => {
    const server = create(...args)
    server.on('request', () => void (counted[on ? 'on' : 'off'].requests += 1))
    return server
  })
  const cpuUs = (): number => {
    const { user, system } = process.cpuUsage()
    return user + system
  }
  let since = cpuUs()
  /** Adds the CPU time since the last call to the state that was in force. */
  const account = (): void => {
    const now = cpuUs()
    counted[on ? 'on' : 'off'].cpuUs += now - since
    since = now
  }
  setInterval(() => {
    account()
    on = !on
    onSwitch()
  }, TURN_MS).unref()
  let sequence = 0
  process.on('SIGUSR2', () => {
    account()
    sequence += 1
    const written: SwitchReport = { sequence, on: { ...counted.on }, off: { ...counted.off } }
    writeFileSync(report, JSON.stringify(written))
    counted.on = { cpuUs: 0, requests: 0 }
    counted.off = { cpuUs: 0, requests: 0 }
  })
}
