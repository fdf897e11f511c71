import { suite, type Test } from 'uvu'
import * as assert from 'uvu/assert'
import { type ApiResponse, type RunningApi, startApi } from './start-api.js'

export interface ApiContext {
  api: RunningApi
}

type StartOptions = Parameters<typeof startApi>[0]

/**
 * A uvu suite whose every test gets a freshly booted app in `context.api`; pass a function to give
 * each test fresh options too (a store of its own).
 */
export const apiSuite = (name: string, options: StartOptions | (() => StartOptions) = {}): Test<ApiContext> => {
  // The before.each hook fills `api` before any test reads it.
  const test = suite<ApiContext>(name, {} as ApiContext)
  test.before.each(async (context) => {
    context.api = await startApi(typeof options === 'function' ? options() : options)
  })
  test.after.each(async (context) => {
    await context.api.close()
  })
  return test
}

/** The spec's Error (§7): JSON, exactly code/message/status, status equal to the HTTP status. */
export const assertError = (response: ApiResponse, status: number, code: string): string => {
  assert.is(response.status, status, `status of ${response.text}`)
  assert.match(response.headers.get('content-type') ?? '', /^application\/json(;|$)/)
  const body = response.body as Record<string, unknown>
  assert.equal(Object.keys(body).sort(), ['code', 'message', 'status'])
  assert.is(body.code, code)
  assert.is(body.status, status)
  assert.type(body.message, 'string')
  assert.is(response.headers.get('cache-control'), 'no-store')
  return body.message as string
}
