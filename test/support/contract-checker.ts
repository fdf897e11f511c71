import { OpenAPIBackend, type Operation, ValidationContext } from 'openapi-backend'
import type { OpenAPIV3_1 } from 'openapi-types'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'

/** What the checker needs of a response. */
export interface ObservedResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

type ResponseObject = OpenAPIV3_1.ResponseObject
type HeaderObject = OpenAPIV3_1.HeaderObject

const API_ROOT = '/v1'
const UNROUTED_STATUSES: Readonly<Record<number, string>> = { 401: 'unauthorized', 404: 'route_not_found' }

/**
 * Checks a response against docs/openapi.yaml with openapi-backend (Ajv underneath): the status must
 * be declared for the operation (the document has no `default`), every header the document marks
 * required must be present, every declared header valid, and the body valid against its schema (Pet
 * and Error allow no extra properties). HEAD is checked as the GET it mirrors, without a body.
 * A request under /v1 that no operation matches must be a 401 or 404 Error. Outside /v1 (the
 * reference page, later health and metrics) the document describes nothing, so there only an error
 * answer is checked: it must be a valid Error. Returns the problems found.
 */
export const contractChecker = async (document: unknown = loadOpenApiDocument()) => {
  const backend = await new OpenAPIBackend({
    definition: structuredClone(document) as OpenAPIV3_1.Document,
    apiRoot: API_ROOT,
    // The service's router is strict: `/v1/pets/` is no route of the document either.
    ignoreTrailingSlashes: false,
    strict: true,
    // quick: dereference synchronously and skip openapi-backend's own check of the document, which
    // knows only OpenAPI 3.0; test/contract/openapi-document.test.ts validates it as 3.1.
    quick: true,
    validate: true,
  }).init()
  const errorSchema = (backend.definition as OpenAPIV3_1.Document).components?.schemas?.Error

  /** An Error body whose status is the HTTP status and, when given, whose code is `code`. */
  const checkError = (response: ObservedResponse, body: unknown, code?: string): string[] => {
    const problems: string[] = []
    const value = body as Record<string, unknown> | undefined
    if (value?.status !== response.status || (code !== undefined && value.code !== code)) {
      problems.push(`expected an Error with status ${response.status}${code === undefined ? '' : ` and code ${code}`}`)
    }
    if (errorSchema !== undefined && !backend.validator.getAjv(ValidationContext.Response).validate(errorSchema, body)) {
      problems.push('the body is not an Error')
    }
    return problems
  }

  const checkUnrouted = (response: ObservedResponse, body: unknown): string[] => {
    const code = UNROUTED_STATUSES[response.status]
    if (code === undefined) return [`status ${response.status} for a path the document does not describe`]
    return checkError(response, body, code)
  }

  return (method: string, url: string, response: ObservedResponse): string[] => {
    const { pathname, searchParams } = new URL(url, 'http://checker')
    const asMethod = method === 'HEAD' ? 'get' : method.toLowerCase()
    const operation: Operation | undefined = backend.router.matchOperation({
      method: asMethod,
      path: pathname,
      headers: {},
      query: Object.fromEntries(searchParams),
    })
    const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json')
    const body: unknown = response.text === '' ? undefined : isJson ? (JSON.parse(response.text) as unknown) : response.text
    if (operation === undefined) {
      const underApi = pathname === API_ROOT || pathname.startsWith(`${API_ROOT}/`)
      if (underApi) return checkUnrouted(response, body)
      return response.status >= 400 ? checkError(response, body) : []
    }

    const where = `${method} ${pathname} → ${response.status}`
    const declared = (operation.responses ?? {})[String(response.status)] as ResponseObject | undefined
    if (declared === undefined) return [`${where}: status not declared for ${operation.operationId ?? '?'}`]

    const problems: string[] = []
    const headers = Object.fromEntries(response.headers.entries())
    for (const [name, header] of Object.entries(declared.headers ?? {}) as Array<[string, HeaderObject]>) {
      if (header.required === true && headers[name.toLowerCase()] === undefined) problems.push(`${where}: missing header ${name}`)
    }
    const headerCheck = backend.validator.validateResponseHeaders(headers, operation, { statusCode: response.status })
    for (const error of headerCheck.errors ?? []) problems.push(`${where}: header ${error.instancePath} ${error.message ?? ''}`)

    const declaresBody = declared.content?.['application/json'] !== undefined
    if (method === 'HEAD' || !declaresBody) {
      if (body !== undefined) problems.push(`${where}: a body where none is declared`)
      return problems
    }
    if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) problems.push(`${where}: not application/json`)
    const bodyCheck = backend.validator.validateResponse(body, operation, response.status)
    for (const error of bodyCheck.errors ?? []) {
      problems.push(`${where}: body${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`)
    }
    return problems
  }
}

export type ContractCheck = Awaited<ReturnType<typeof contractChecker>>
