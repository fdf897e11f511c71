import type { Operation } from '../../adapters/test-target/fault-rule.js'
import { NO_BODY } from '../../adapters/test-target/held-body.js'
import type { KeptRequest } from '../../adapters/test-target/journal-entry.js'
import { headersIn } from '../../adapters/test-target/journal-headers.js'
import { arrivedRecord, settle } from '../../adapters/test-target/journal-record.js'
import type { RequestJournal } from '../../adapters/test-target/request-journal.js'

/** A GET of `path` as a journal keeps it from its arrival, without headers or a body, its keys shown as they are. */
export const arrivedGet = (path: string): KeptRequest =>
  arrivedRecord(
    { id: 'request-1', started: 0, method: 'GET', path, url: path, hasBody: false, rawRequestHeaders: [] },
    { redact: (text) => text, operationOf: () => null },
    {},
  )

/** A GET of `path` kept in `sandbox`'s journal from its arrival, then answered `status` as `operation`, with no headers or body. */
export const keepAnswered = (
  journal: RequestJournal,
  sandbox: string,
  path: string,
  { operation, status }: { readonly operation: Operation | null; readonly status: number },
): void => {
  const request = arrivedGet(path)
  const place = journal.arrive(sandbox, request)
  settle(request, {
    operation,
    state: 'answered',
    status,
    durationMs: 1,
    fault: null,
    requestBody: NO_BODY,
    responseHeaders: headersIn({}),
    responseBody: NO_BODY,
  })
  place.file()
}
