import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import * as E from 'fp-ts/Either'
import * as O from 'fp-ts/Option'
import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { decodeNewPet } from '../../src/domain/create-pet.js'
import { PET_STATUSES, type PetStatus } from '../../src/domain/pet.js'

/**
 * The practical limit of Node for this API: node:http doing the same work as the service (bearer
 * check in constant time, JSON parsing and validation with the same codecs, the same store, the same
 * bodies and headers) and nothing else: no framework, no logging.
 */
const KEY = Buffer.from(process.env.PETSTORE_API_KEYS ?? '')
const repository = memoryPetRepository()
const COMMON = { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' }

const authorized = (header: string | undefined): boolean => {
  const token = /^bearer +(\S+) *$/i.exec(header ?? '')?.[1]
  if (token === undefined) return false
  const presented = Buffer.from(token)
  const candidate = Buffer.alloc(KEY.length)
  presented.copy(candidate)
  return timingSafeEqual(candidate, KEY) && presented.length === KEY.length
}

const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const json = JSON.stringify(body)
  response.writeHead(status, { ...COMMON, 'X-Request-Id': randomUUID(), 'Content-Length': Buffer.byteLength(json), ...headers })
  response.end(json)
}

/** A successful read, with the same strong ETag and cache policy as the service. */
const sendCacheable = (response: ServerResponse, body: unknown, headers: Record<string, string> = {}): void => {
  const json = JSON.stringify(body)
  const etag = `"${createHash('sha1')
    .update(json)
    .update('\n')
    .update(headers.Link ?? '')
    .digest('base64url')}"`
  response.writeHead(200, {
    ...COMMON,
    'Cache-Control': 'private, no-cache',
    ETag: etag,
    'X-Request-Id': randomUUID(),
    'Content-Length': Buffer.byteLength(json),
    ...headers,
  })
  response.end(json)
}

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (text += chunk))
    request.on('end', () => resolve(text))
  })

const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
  if (!authorized(request.headers.authorization))
    return send(response, 401, { code: 'unauthorized', message: 'no', status: 401 }, { 'WWW-Authenticate': 'Bearer realm="petstore"' })
  const url = new URL(request.url ?? '/', 'http://raw')
  if (url.pathname === '/v1/pets' && request.method === 'POST') {
    const draft = decodeNewPet(JSON.parse(await readBody(request)) as unknown)
    if (E.isLeft(draft)) return send(response, 400, { code: 'invalid_body', message: draft.left.problems.join('; '), status: 400 })
    const pet = await repository.insert(draft.right)()
    if (E.isLeft(pet)) return send(response, 503, { code: 'service_unavailable', message: 'down', status: 503 })
    return send(response, 201, pet.right, { Location: `/v1/pets/${pet.right.id}` })
  }
  if (url.pathname === '/v1/pets') {
    const limit = Number(url.searchParams.get('limit') ?? '20')
    const status = url.searchParams.get('status')
    const statusFilter = PET_STATUSES.find((candidate): candidate is PetStatus => candidate === status)
    const pets = await repository.list({ limit: limit + 1, ...(statusFilter === undefined ? {} : { status: statusFilter }) })()
    if (E.isLeft(pets)) return send(response, 503, { code: 'service_unavailable', message: 'down', status: 503 })
    const page = pets.right.slice(0, limit)
    const link = pets.right.length > limit ? { Link: `</v1/pets?limit=${limit}&after=${page[page.length - 1]?.id ?? 0}>; rel="next"` } : {}
    return sendCacheable(response, page, link)
  }
  const id = /^\/v1\/pets\/([1-9][0-9]*)$/.exec(url.pathname)?.[1]
  const found = id === undefined ? undefined : await repository.findById(Number(id))()
  const deprecation = { Deprecation: '@1795305600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', Link: '</v1/pets>; rel="successor-version"' }
  if (found !== undefined && E.isRight(found) && O.isSome(found.right)) return sendCacheable(response, found.right.value, deprecation)
  return send(response, 404, { code: 'not_found', message: `no pet has id ${id ?? ''}`, status: 404 }, deprecation)
}

const seedAndListen = async (): Promise<void> => {
  const count = Number(process.env.BENCH_PETS ?? '1000')
  for (let index = 0; index < count; index += 1) {
    await repository.insert({ name: `pet ${index}`, categoryId: index % 10, status: PET_STATUSES[index % 3] ?? 'available' })()
  }
  const server = createServer((request, response) => void handle(request, response))
  server.listen(Number(process.env.PORT ?? '0'), '127.0.0.1', () => {
    const address = server.address()
    process.stdout.write(
      `${JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}` })}\n`,
    )
  })
  process.once('SIGTERM', () => server.close(() => process.exit(0)))
}

void seedAndListen()
