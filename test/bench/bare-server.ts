import { createServer } from 'node:http'

/**
 * What node:http alone reaches on this machine: every request, whatever it asks, answered with the
 * same fixed JSON array (the first page of the list, serialized once). The benchmark prints it
 * beside the minimal server's list, so that a reader can see how close that limit is to Node's own.
 */
const STATUSES = ['available', 'pending', 'sold']
const BODY = JSON.stringify(
  Array.from({ length: 20 }, (_, index) => ({ id: index + 1, name: `pet ${index}`, categoryId: index % 10, status: STATUSES[index % 3] })),
)
const HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(BODY) }

// Each answer written and ended at once, as the minimal server and the service do.
const server = createServer((_request, response) => {
  response.writeHead(200, HEADERS)
  response.end(BODY)
})
server.listen(Number(process.env.PORT ?? '0'), '127.0.0.1')
process.once('SIGTERM', () => server.close(() => process.exit(0)))
