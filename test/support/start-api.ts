import type { AddressInfo } from 'node:net'
import { request as httpRequest, type Server } from 'node:http'
import * as TE from 'fp-ts/TaskEither'
import pino from 'pino'
import { staticKeyAuthenticator } from '../../adapters/auth/static-key-authenticator.js'
import { type AppOptions, buildApp, servedDocumentOf } from '../../adapters/http/app.js'
import { createHttpServer, DEFAULT_SERVER_LIMITS, type ServerLimits } from '../../adapters/http/http-server.js'
import { keyRedactor } from '../../adapters/http/key-redaction.js'
import { testTarget } from '../../adapters/test-target/test-target.js'
import type { SandboxBudget } from '../../src/store/sandbox-budget.js'
import type { DataSets } from '../../src/store/data-sets.js'
import { MADE_KEY_FORM, type MadeKeys, madeKeys } from '../../adapters/test-target/made-keys.js'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { memoryIdempotencyStore } from '../../adapters/memory/memory-idempotency-store.js'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import type { IdempotencyStore } from '../../src/domain/idempotency-store.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import type { Store } from '../../src/store/store.js'
import { petUseCases } from '../../src/domain/use-cases.js'
import { DEFAULT_MAX_BODY_BYTES } from '../../src/main/config.js'
import { type ContractCheck, contractChecker } from './contract-checker.js'

export const TEST_KEY = 'test-key-0123456789abcdef'
export const OTHER_KEY = 'other-key-0123456789abcdef'

export interface ApiResponse {
  readonly status: number
  readonly headers: Headers
  /** Parsed JSON, or undefined when the response had no body. */
  readonly body: unknown
  readonly text: string
}

export interface RequestOptions {
  readonly headers?: Record<string, string>
  /** An object is sent as JSON with Content-Type application/json; a string or bytes as given. */
  readonly body?: unknown
  /** false: send no Authorization header. Default: the test key. */
  readonly key?: string | false
  /** Header lines sent as given, after the others: a name may repeat, each as a line of its own (`headers` holds one value per name). */
  readonly headerLines?: ReadonlyArray<readonly [string, string]>
  /**
   * Called once the service has the request and is answering it: the request then says `Expect:
   * 100-continue`, and this is called on the service's `100 Continue`.
   */
  readonly onContinue?: () => void
  /**
   * The answer is a fault script rule's `answer`, which the contract declares as whatever the rule
   * says (FaultRule's `answer`), outside the operation's responses: it is not checked against them.
   */
  readonly scripted?: boolean
}

export interface RunningApi {
  readonly baseUrl: string
  readonly request: (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>
  /** The contract this app serves at /v1/openapi.json, which its every response is checked against. */
  readonly contract: Record<string, unknown>
  /** How many connections the server holds now, whatever their clients do. */
  readonly openConnections: () => Promise<number>
  readonly close: () => Promise<void>
}

const encodeBody = (body: unknown): { body?: string | Uint8Array; contentType?: string } => {
  if (body === undefined) return {}
  if (typeof body === 'string' || body instanceof Uint8Array) return { body }
  return { body: JSON.stringify(body), contentType: 'application/json' }
}

/** docs/openapi.yaml, parsed once per test process rather than by every app (deriving from it is pure). */
const SOURCE_DOCUMENT = loadOpenApiDocument()

/** One checker per distinct document, built once: most apps serve the same one. */
const checkers = new Map<string, Promise<ContractCheck>>()

const checkerFor = (document: unknown): Promise<ContractCheck> => {
  const text = JSON.stringify(document)
  const checker = checkers.get(text) ?? contractChecker(document)
  checkers.set(text, checker)
  return checker
}

/**
 * The checker for the contract a running service serves (one started as a process, whose options the
 * test does not hold), fetched before the request: that request may be the service's last (a
 * shutdown test). Not cached: a later service may listen on the same port with other settings.
 */
export const servedBy = (baseUrl: string): Promise<ContractCheck> => {
  const checker = fetch(`${baseUrl}/v1/openapi.json`).then(async (served) => checkerFor(await served.json()))
  // Awaited after the request; if the request fails first, this must not become an unhandled rejection.
  checker.catch(() => undefined)
  return checker
}

interface Received {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/**
 * The Content-Length fetch would send: a body's length, or 0 for a POST or PUT without one; none
 * when the listed lines already say how the body is framed.
 */
const contentLength = (method: string, lines: ReadonlyArray<readonly [string, string]>, body?: string | Uint8Array): string | undefined => {
  if (lines.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name))) return undefined
  if (body !== undefined) return String(Buffer.byteLength(body))
  return method === 'POST' || method === 'PUT' ? '0' : undefined
}

/**
 * One exchange through node:http, a client far lighter than fetch (most of the HTTP suites' CPU went
 * to undici): the header lines go as listed, a repeated name as two lines, after the Host, and the
 * Content-Length fetch would send.
 */
const exchange = (
  url: string,
  method: string,
  lines: ReadonlyArray<readonly [string, string]>,
  body?: string | Uint8Array,
  onContinue?: () => void,
): Promise<Received> =>
  new Promise((resolve, reject) => {
    const length = contentLength(method, lines, body)
    const all = [['Host', new URL(url).host] as const, ...lines, ...(length === undefined ? [] : [['Content-Length', length] as const])]
    const outgoing = httpRequest(url, { method, headers: all.flatMap(([name, value]) => [name, value]) }, (incoming) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('end', () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const each of Array.isArray(value) ? value : [value ?? '']) headers.append(name, each)
        }
        resolve({ status: incoming.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') })
      })
    })
    outgoing.on('error', reject)
    if (onContinue !== undefined) outgoing.on('continue', onContinue)
    outgoing.end(body)
  })

/**
 * Sends one request, reads the whole answer and checks it against the contract the service serves:
 * with `check` when given, otherwise against the document fetched from the service.
 */
export const send = async (
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
  check?: Promise<ContractCheck>,
): Promise<ApiResponse> => {
  const checker = check ?? servedBy(baseUrl)
  const { body, contentType } = encodeBody(options.body)
  const headers: Record<string, string> = {}
  if (contentType !== undefined) headers['content-type'] = contentType
  if (options.key !== false) headers.authorization = `Bearer ${options.key ?? TEST_KEY}`
  const {
    status,
    headers: received,
    text,
  } = await exchange(
    `${baseUrl}${path}`,
    method,
    [
      ...Object.entries({ ...headers, ...options.headers }),
      ...(options.headerLines ?? []),
      ...(options.onContinue === undefined ? [] : [['Expect', '100-continue'] as const]),
    ],
    body,
    options.onContinue,
  )
  const isJson = (received.get('content-type') ?? '').startsWith('application/json')
  const answer = { status, headers: received, body: isJson && text !== '' ? (JSON.parse(text) as unknown) : undefined, text }
  const problems = options.scripted === true ? [] : (await checker)(method, path, answer)
  if (problems.length > 0) throw new Error(`the response breaks the contract the service serves:\n  ${problems.join('\n  ')}`)
  return answer
}

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
  })

/**
 * Boots the real app (memory repository, static-key authenticator with TEST_KEY and OTHER_KEY) on an
 * ephemeral port. Options override any part of the wiring. Its responses are checked against the
 * contract this configuration serves, taken from the function the app serves it from, so that no
 * extra request shows in a test's logs or metrics.
 */
export const startApi = async (
  options: Partial<AppOptions> & {
    readonly pets?: PetRepository
    readonly idempotency?: IdempotencyStore
    /** A whole store (its shared ports and its readiness) instead of `pets` and `idempotency`. */
    readonly store?: Store
    readonly limits?: ServerLimits
    /** The whole test target, as PETSTORE_TEST_TARGET=on mounts it, with its sandboxes over this space. */
    readonly sandboxes?: DataSets
    /** The keys of sandboxes made at run time; a registry with the defaults when omitted. */
    readonly madeKeys?: MadeKeys
    /** What each sandbox may hold beside its store (whose part its space bounds); the default budget when omitted. */
    readonly budget?: SandboxBudget
  } = {},
): Promise<RunningApi> => {
  const pets = options.store?.shared.pets ?? options.pets ?? memoryPetRepository()
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const logger = options.logger ?? pino({ level: 'silent' })
  const redact = options.redact ?? keyRedactor([TEST_KEY, OTHER_KEY], options.sandboxes === undefined ? [] : [MADE_KEY_FORM])
  const mounted =
    options.sandboxes === undefined
      ? undefined
      : testTarget({
          space: options.sandboxes,
          madeKeys: options.madeKeys ?? madeKeys(),
          ...(options.budget === undefined ? {} : { budget: options.budget }),
          redact,
          maxBodyBytes,
          ...(options.shutdown === undefined ? {} : { shutdown: options.shutdown }),
        })
  const appOptions: AppOptions = {
    useCases: petUseCases({ pets, idempotency: options.store?.shared.idempotency ?? options.idempotency ?? memoryIdempotencyStore() }),
    health: { ready: options.store?.ready ?? (() => TE.right(undefined)), draining: () => false },
    authenticator: staticKeyAuthenticator([TEST_KEY, OTHER_KEY]),
    redact,
    logger,
    maxBodyBytes,
    // Each app would register Node's default metrics again; the metrics tests turn them on.
    metrics: false,
    openApiDocument: SOURCE_DOCUMENT,
    ...(mounted === undefined ? {} : { extension: mounted }),
    ...options,
  }
  const app = buildApp(appOptions)
  const contract = servedDocumentOf(appOptions)
  const check = checkerFor(contract)
  const server = createHttpServer(app, { logger, redact: appOptions.redact, limits: options.limits ?? DEFAULT_SERVER_LIMITS })
  const baseUrl = await listen(server)
  return {
    baseUrl,
    contract,
    request: (method, path, requestOptions) => send(baseUrl, method, path, requestOptions, check),
    openConnections: () =>
      new Promise((resolve, reject) => server.getConnections((error, count) => (error === null ? resolve(count) : reject(error)))),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        // The log lines and metrics of the last answers are written in the turn after them (oncePerTurn).
        server.close(() => setImmediate(resolve))
      }),
  }
}
