import * as assert from 'uvu/assert'
import type { JournalEntry } from '../../adapters/test-target/journal-entry.js'
import { type RunningApi, TEST_KEY } from './start-api.js'

/** A page of the journal of `key`'s sandbox (GET /v1/sandbox/requests with `query`), asserted answered 200. */
export const journalOf = async (api: RunningApi, query = '', key: string = TEST_KEY): Promise<ReadonlyArray<JournalEntry>> => {
  const response = await api.request('GET', `/v1/sandbox/requests${query}`, { key })
  assert.is(response.status, 200, response.text)
  return response.body as ReadonlyArray<JournalEntry>
}

/** How many entries of the sandbox's journal match `query` (GET /v1/sandbox/requests/count), asserted answered 200. */
export const countOf = async (api: RunningApi, query = ''): Promise<number> => {
  const response = await api.request('GET', `/v1/sandbox/requests/count${query}`)
  assert.is(response.status, 200, response.text)
  return (response.body as { count: number }).count
}
