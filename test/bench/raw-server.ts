import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

/**
 * The benchmark's limit: a minimal node:http server, written plainly, that gives the benchmark's
 * requests the service's answers. A Map and arrays, hand-written checks, none of the service's
 * modules; the same statuses and body bytes as the service, with only Content-Type and
 * Content-Length set (Node adds Date and the keep-alive headers to both). Every other header the
 * service sends is one of its features, and shows up in the benchmark as part of its cost.
 *
 * It uses nothing the service may not: each answer is serialized when asked for (no page or pet
 * JSON kept between requests) and sent with `response.end()` at once, not held for the end of the
 * event-loop turn. A limit built from tricks the service may not use would only measure the tricks.
 */
interface Pet {
  readonly id: number
  readonly name: string
  readonly categoryId: number
  readonly status: string
}

const AUTHORIZATION = `Bearer ${process.env.PETSTORE_API_KEYS ?? ''}`
const STATUSES = ['available', 'pending', 'sold']
// In id order, as the service lists them; one array per status, so that a filtered page is a slice.
const all: Pet[] = []
const byStatus = new Map<string, Pet[]>(STATUSES.map((status) => [status, []]))
const byId = new Map<number, Pet>()

const insert = (name: string, categoryId: number, status: string): Pet => {
  // The service's key order, so that the bodies are the same bytes.
  const pet: Pet = { id: all.length + 1, name, categoryId, status }
  all.push(pet)
  byStatus.get(status)?.push(pet)
  byId.set(pet.id, pet)
  return pet
}

const sendJson = (response: ServerResponse, status: number, json: string): void => {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) })
  response.end(json)
}

const fail = (response: ServerResponse, status: number, code: string, message: string): void =>
  sendJson(response, status, JSON.stringify({ code, message, status }))

/** limit (1 to 100, default 20) and status, read by hand; anything else is refused. */
const list = (response: ServerResponse, query: string): void => {
  let limit = 20
  let pets = all
  for (const pair of query === '' ? [] : query.split('&')) {
    const [name, value = ''] = pair.split('=')
    if (name === 'limit' && /^[1-9][0-9]?$|^100$/.test(value)) limit = Number(value)
    else if (name === 'status' && byStatus.has(value)) pets = byStatus.get(value) ?? all
    else return fail(response, 400, 'invalid_parameter', `${name ?? ''}: is not valid`)
  }
  sendJson(response, 200, JSON.stringify(pets.slice(0, limit)))
}

const create = (request: IncomingMessage, response: ServerResponse): void => {
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    let body: { name?: unknown; categoryId?: unknown; status?: unknown }
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body
    } catch {
      return fail(response, 400, 'invalid_json', 'the body is not valid JSON')
    }
    const { name, categoryId, status = 'available' } = body
    if (typeof name !== 'string' || name.length === 0 || name.length > 200) return fail(response, 400, 'invalid_body', 'name')
    if (typeof categoryId !== 'number' || !Number.isSafeInteger(categoryId)) return fail(response, 400, 'invalid_body', 'categoryId')
    if (typeof status !== 'string' || !byStatus.has(status)) return fail(response, 400, 'invalid_body', 'status')
    sendJson(response, 201, JSON.stringify(insert(name, categoryId, status)))
  })
}

/** Read from the raw header lines: Node builds `request.headers` only when it is first read. */
const authorizationOf = (request: IncomingMessage): string | undefined => {
  const lines = request.rawHeaders
  for (let index = 0; index < lines.length; index += 2) {
    if (lines[index]?.length === 13 && lines[index]?.toLowerCase() === 'authorization') return lines[index + 1]
  }
  return undefined
}

const handle = (request: IncomingMessage, response: ServerResponse): void => {
  if (authorizationOf(request) !== AUTHORIZATION) return fail(response, 401, 'unauthorized', 'the API key is not valid')
  const url = request.url ?? ''
  const mark = url.indexOf('?')
  const path = mark === -1 ? url : url.slice(0, mark)
  if (path === '/v1/pets') {
    if (request.method === 'POST') return create(request, response)
    return list(response, mark === -1 ? '' : url.slice(mark + 1))
  }
  const id = path.startsWith('/v1/pets/') ? path.slice('/v1/pets/'.length) : undefined
  if (id === undefined) return fail(response, 404, 'route_not_found', `no route for ${request.method ?? ''} ${path}`)
  const pet = /^[1-9][0-9]{0,15}$/.test(id) ? byId.get(Number(id)) : undefined
  if (pet === undefined) return fail(response, 404, 'not_found', `no pet has id ${id}`)
  sendJson(response, 200, JSON.stringify(pet))
}

const count = Number(process.env.BENCH_PETS ?? '1000')
for (let index = 0; index < count; index += 1) insert(`pet ${index}`, index % 10, STATUSES[index % 3] ?? 'available')
const server = createServer(handle)
server.listen(Number(process.env.PORT ?? '0'), '127.0.0.1')
process.once('SIGTERM', () => server.close(() => process.exit(0)))
