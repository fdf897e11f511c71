import type Router from '@koa/router'
import * as E from 'fp-ts/Either'
import * as t from 'io-ts'
import type { Context } from 'koa'
import { describeErrors } from '../../src/domain/codec.js'
import { JsonInteger } from '../../src/domain/integer-text.js'
import { unauthorized } from '../../src/domain/errors.js'
import type { DataSetClock } from '../../src/store/data-sets.js'
import type { AuthState } from '../http/auth.js'
import { echoed, sendFailure } from '../http/error-response.js'
import { JSON_TYPE } from '../http/etag.js'
import { invalidClockAdvance } from './failures.js'
import { jsonBody, type JsonBodyState } from '../http/json-body.js'
import type { Sandboxes } from './per-key-sandboxes.js'

export const SANDBOX_CLOCK_PATH = '/v1/sandbox/clock'

const DAY_MS = 24 * 60 * 60 * 1000
/** The most one advance may move a clock: a year and a day, past every time the service keeps. */
export const MAX_ADVANCE_MS = 366 * DAY_MS
/**
 * How far ahead of real time a sandbox's clock may run: a hundred such advances. Far beyond what a
 * test needs, and far inside the dates an ISO 8601 time can write, which a clock moved without
 * bound would leave (then no journal entry could be dated).
 */
export const MAX_AHEAD_MS = 100 * MAX_ADVANCE_MS

/** What `advance` must be, as a message says it. */
const RANGE = `an integer from 0 to ${MAX_ADVANCE_MS}, the milliseconds to move the clock forward (never back)`

const Advance = JsonInteger(
  'Advance',
  (input) => (input === undefined ? `is required: ${RANGE}` : `must be ${RANGE}`),
  (integer) => (integer >= 0 && integer <= MAX_ADVANCE_MS ? undefined : `must be ${RANGE}`),
)

const ClockAdvance = t.type({ advance: Advance })

/** The milliseconds a POST body asks to advance by, or every problem with it: an unknown field is a mistake, never ignored. */
const decodeClockAdvance = (body: unknown): E.Either<ReadonlyArray<string>, number> => {
  if (!t.UnknownRecord.is(body)) return E.left(['the body must be a JSON object: {"advance": <milliseconds>}'])
  const unknown = Object.keys(body)
    .filter((field) => field !== 'advance')
    .map((field) => `${echoed(field)}: is not a field of a clock advance (advance)`)
  const decoded = ClockAdvance.decode(body)
  if (E.isLeft(decoded)) return E.left([...describeErrors(decoded.left), ...unknown])
  return unknown.length > 0 ? E.left(unknown) : E.right(decoded.right.advance)
}

const answerClock = (ctx: Context, clock: DataSetClock): void => {
  ctx.type = JSON_TYPE
  ctx.body = JSON.stringify({ now: new Date(clock.now()).toISOString(), advancedMs: clock.advancedMs() })
}

/**
 * The caller's sandbox's clock: GET /v1/sandbox/clock reads it, POST /v1/sandbox/clock with
 * `{"advance": <milliseconds>}` moves it forward, and both answer it (200). Authentication runs
 * before every /v1 route, so a client is always known here; a made sandbox that ended meanwhile is
 * refused (401), like a reset.
 */
export const registerSandboxClockRoutes = (
  router: Router,
  { sandboxes, maxBodyBytes }: { readonly sandboxes: Sandboxes; readonly maxBodyBytes: number },
): void => {
  router.get('getSandboxClock', SANDBOX_CLOCK_PATH, (ctx) => {
    const client = (ctx.state as AuthState).client
    if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
    answerClock(ctx, sandboxes.clockOf(client.scope))
  })

  router.post<JsonBodyState>(
    'advanceSandboxClock',
    SANDBOX_CLOCK_PATH,
    ...jsonBody(maxBodyBytes, 'a JSON object {"advance": <milliseconds>}'),
    async (ctx) => {
      const client = (ctx.state as AuthState).client
      if (client === undefined) return sendFailure(ctx, unauthorized('missing'))
      const advance = decodeClockAdvance(ctx.state.body)
      if (E.isLeft(advance)) return sendFailure(ctx, invalidClockAdvance(advance.left))
      const clock = sandboxes.clockOf(client.scope)
      if (clock.advancedMs() + advance.right > MAX_AHEAD_MS) {
        return sendFailure(
          ctx,
          invalidClockAdvance([
            `advance: would put the clock more than ${MAX_AHEAD_MS} ms ahead of real time (it is ${clock.advancedMs()} ms ahead); ` +
              'POST /v1/sandbox/reset puts it back',
          ]),
        )
      }
      const advanced = await sandboxes.advance(client, advance.right)()
      if (E.isLeft(advanced)) return sendFailure(ctx, advanced.left)
      answerClock(ctx, clock)
    },
  )
}
