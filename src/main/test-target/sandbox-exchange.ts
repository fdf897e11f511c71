import * as E from 'fp-ts/Either'
import * as t from 'io-ts'
import { type JournalFilters, PetStoreError } from './sandbox-types.js'

/** How the typed client exchanges with the service: one request, its answer checked. */
// What each answer is checked to be: its parts a caller reads first; the contract says the rest.
export const FaultScript = t.array(t.type({ operation: t.string }))
export const Entries = t.array(t.type({ sequence: t.number, method: t.string, path: t.string, state: t.string }))
const Judged = t.array(t.type({ sequences: t.array(t.number), message: t.string }))
export const Report = t.type({
  journal: t.type({ kept: t.number, dropped: t.number }),
  findings: Judged,
  warnings: Judged,
  deprecatedOperations: Judged,
  coverage: t.type({ responses: t.UnknownArray, faults: t.UnknownArray, totals: t.UnknownRecord }),
})
export const Count = t.type({ count: t.number, complete: t.boolean })
export const Made = t.type({ key: t.string })
export const Clock = t.type({ now: t.string, advancedMs: t.number })
export const ServiceError = t.type({ code: t.string, message: t.string })
export const NoBody = new t.Type<undefined>(
  'no body',
  (value): value is undefined => value === undefined,
  (value, context) => (value === undefined ? t.success(undefined) : t.failure(value, context)),
  () => undefined,
)

/** The query of a journal read; undefined filters are left out, each `header` given is sent. */
export const queryOf = (filters: JournalFilters & { readonly limit?: number }): string => {
  const query = new URLSearchParams(
    Object.entries(filters).flatMap(
      ([name, value]: [string, string | number | ReadonlyArray<string> | undefined]): Array<[string, string]> =>
        value === undefined ? [] : typeof value === 'object' ? value.map((each) => [name, each]) : [[name, String(value)]],
    ),
  )
  return query.size === 0 ? '' : `?${query.toString()}`
}

/** An operation of the service with one key: its method and path, the status it answers when it did what was asked, and the shape of that answer. */
interface Exchange<A> {
  readonly method: string
  readonly path: string
  readonly expected: number
  readonly codec: t.Decoder<unknown, A>
  readonly body?: unknown
}

/**
 * Calls one operation of the service with `key`, and decodes its answer; any other status than the
 * one expected is thrown with the service's Error `message` (which never holds a key).
 */
export const exchange = async <A>(
  url: string,
  key: string,
  call: Exchange<A>,
): Promise<{ readonly value: A; readonly headers: Headers }> => {
  const { method, path, expected, codec, body } = call
  const headers = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
  const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const text = await response.text()
  const json = ((): unknown => {
    try {
      return text === '' ? undefined : JSON.parse(text)
    } catch {
      return text
    }
  })()
  if (response.status !== expected) {
    const error = ServiceError.decode(json)
    const said = E.isRight(error) ? `${error.right.code}: ${error.right.message}` : text.slice(0, 200)
    throw new PetStoreError(
      `${method} ${path} answered ${response.status} ${said}`,
      response.status,
      E.isRight(error) ? error.right.code : undefined,
    )
  }
  const decoded = codec.decode(json)
  if (E.isLeft(decoded))
    throw new PetStoreError(`${method} ${path} answered what the contract does not say: ${text.slice(0, 200)}`, response.status, undefined)
  return { value: decoded.right, headers: response.headers }
}

export const call = async <A>(url: string, key: string, exchanged: Exchange<A>): Promise<A> => (await exchange(url, key, exchanged)).value

/** The path the `Link: <...>; rel="next"` of a journal page names; undefined on the last page. */
export const nextPageOf = (headers: Headers): string | undefined => /^<([^>]+)>; rel="next"$/.exec(headers.get('link') ?? '')?.[1]
