import { OpenAPIBackend, type Operation, ValidationContext } from 'openapi-backend'
import type { OpenAPIV3_1 } from 'openapi-types'

/** What the checker needs of a response. */
export interface ObservedResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

type ResponseObject = OpenAPIV3_1.ResponseObject
type HeaderObject = OpenAPIV3_1.HeaderObject

const API_ROOT = '/v1'
/** Answered before routing, so possible on any path under /v1: two keys, a missing key, an exhausted quota. */
const BEFORE_ROUTING: Readonly<Record<number, string>> = { 400: 'invalid_request', 401: 'unauthorized', 429: 'rate_limited' }
/** The methods an OpenAPI path item can hold. */
const DOCUMENT_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
/** The order of the service's `Allow` header. */
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
/** Headers every answer under /v1 carries, and the document's header component for each. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'XContentTypeOptions',
  'Cache-Control': 'CacheControl',
  'X-Request-Id': 'XRequestId',
}

/**
 * Checks a response against an OpenAPI document (the one the app under test serves) with
 * openapi-backend (Ajv underneath): the status must be declared for the operation (the document has
 * no `default`), every header the document marks required must be present, every declared header
 * valid, and the body valid against its schema (Pet and Error allow no extra properties). HEAD is
 * checked as the GET it mirrors, without a body.
 * A request under /v1 that no operation matches is one the document describes in prose only:
 * - on a path the document has, `OPTIONS` is 204 with no body and `Allow` listing the path's methods
 *   (`HEAD` wherever `GET` is), and any other method a 405 `method_not_allowed` Error with that
 *   `Allow`;
 * - on any other path, a 404 `route_not_found` Error;
 * - anywhere, a 400 invalid_request, 401 or 429 Error (answered before routing), or a CORS preflight's 204;
 * and each carries the headers common to every answer. Outside /v1 (the reference page, health and
 * metrics) the document describes nothing, so there only an error answer is checked: it must be a
 * valid Error. Returns the problems found.
 */
export const contractChecker = async (document: unknown) => {
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
  const components = (backend.definition as OpenAPIV3_1.Document).components
  const errorSchema = components?.schemas?.Error
  const ajv = backend.validator.getAjv(ValidationContext.Response)
  // Header values are text: `Retry-After: 5` is the integer its schema says once coerced, as
  // openapi-backend's own header validation reads it.
  const headerAjv = backend.validator.getAjv(ValidationContext.ResponseHeaders, { coerceTypes: true })
  /**
   * One header validator per declared response, compiled when first met. openapi-backend's
   * validateResponseHeaders compiles four, for every status of the operation at once, with a new
   * Ajv each time: most of the CPU of the HTTP suites went there. Ajv compiles a body schema once
   * too (its cache is keyed by the schema object, which `quick` dereferencing shares).
   */
  type Validate = ReturnType<typeof headerAjv.compile>
  const headerValidators = new Map<ResponseObject, Validate>()
  const headerValidatorOf = (declared: ResponseObject): Validate => {
    const known = headerValidators.get(declared)
    if (known !== undefined) return known
    const properties = Object.fromEntries(
      Object.entries(declared.headers ?? {}).flatMap(([name, header]) => {
        const schema = (header as HeaderObject).schema
        return schema === undefined ? [] : [[name.toLowerCase(), schema]]
      }),
    )
    const compiled = headerAjv.compile({ type: 'object', additionalProperties: true, properties })
    headerValidators.set(declared, compiled)
    return compiled
  }

  /** An Error body whose status is the HTTP status and, when given, whose code is `code`. */
  const checkError = (response: ObservedResponse, body: unknown, code?: string): string[] => {
    const problems: string[] = []
    const value = body as Record<string, unknown> | undefined
    if (value?.status !== response.status || (code !== undefined && value.code !== code)) {
      problems.push(`expected an Error with status ${response.status}${code === undefined ? '' : ` and code ${code}`}`)
    }
    if (errorSchema !== undefined && !ajv.validate(errorSchema, body)) {
      problems.push('the body is not an Error')
    }
    return problems
  }

  /** The methods the document offers on this path, as the service lists them in `Allow`; none for an unknown path. */
  const allowOn = (path: string): string[] => {
    const offered = new Set(
      DOCUMENT_METHODS.filter((method) => backend.router.matchOperation({ method, path, headers: {} }) !== undefined).map((method) =>
        method.toUpperCase(),
      ),
    )
    if (offered.has('GET')) offered.add('HEAD')
    return ALLOW_ORDER.filter((method) => offered.has(method))
  }

  const checkCommonHeaders = (where: string, response: ObservedResponse): string[] =>
    Object.entries(COMMON_HEADERS).flatMap(([name, component]) => {
      const schema = (components?.headers?.[component] as HeaderObject | undefined)?.schema
      const value = response.headers.get(name)
      if (value === null) return [`${where}: missing header ${name}`]
      return schema === undefined || ajv.validate(schema, value) ? [] : [`${where}: header ${name} is not valid: ${value}`]
    })

  /** 405 or OPTIONS 204 on a path the document has, 404 on one it has not, or a CORS preflight. */
  const checkRouting = (where: string, method: string, path: string, response: ObservedResponse, body: unknown): string[] => {
    const noBody = body === undefined ? [] : [`${where}: a body where none is described`]
    if (method === 'OPTIONS' && response.headers.has('access-control-allow-methods')) {
      return response.status === 204 ? noBody : [`${where}: a CORS preflight answered ${response.status}, not 204`]
    }
    const allow = allowOn(path).join(', ')
    if (allow === '') {
      if (response.status === 404) return checkError(response, body, 'route_not_found')
      return [`${where}: status ${response.status} for a path the document does not describe`]
    }
    const expected = method === 'OPTIONS' ? 204 : 405
    if (response.status !== expected) return [`${where}: expected ${expected}, as the document offers only ${allow} here`]
    const problems = response.headers.get('allow') === allow ? [] : [`${where}: Allow is ${response.headers.get('allow')}, not ${allow}`]
    return [...problems, ...(expected === 204 ? noBody : checkError(response, body, 'method_not_allowed'))]
  }

  /** An answer under /v1 that no operation describes (see above). */
  const checkUnrouted = (method: string, path: string, response: ObservedResponse, body: unknown): string[] => {
    const where = `${method} ${path} → ${response.status}`
    const beforeRouting = BEFORE_ROUTING[response.status]
    return [
      ...checkCommonHeaders(where, response),
      ...(beforeRouting === undefined ? checkRouting(where, method, path, response, body) : checkError(response, body, beforeRouting)),
    ]
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
      if (underApi) return checkUnrouted(method, pathname, response, body)
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
    const validHeaders = headerValidatorOf(declared)
    if (!validHeaders(headers)) {
      for (const error of validHeaders.errors ?? []) problems.push(`${where}: header ${error.instancePath} ${error.message ?? ''}`)
    }

    const declaresBody = declared.content?.['application/json'] !== undefined
    if (method === 'HEAD' || !declaresBody) {
      if (body !== undefined) problems.push(`${where}: a body where none is declared`)
      return problems
    }
    if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) problems.push(`${where}: not application/json`)
    const validBody = ajv.compile(declared.content?.['application/json']?.schema ?? {})
    if (!validBody(body)) {
      for (const error of validBody.errors ?? []) {
        problems.push(`${where}: body${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`)
      }
    }
    return problems
  }
}

export type ContractCheck = Awaited<ReturnType<typeof contractChecker>>
