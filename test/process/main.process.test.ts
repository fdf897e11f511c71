import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { heldCreate } from '../support/held-create.js'
import { aNewPet, aPet } from '../support/pet-builder.js'
import { OTHER_KEY, send, servedBy, TEST_KEY } from '../support/start-api.js'
import { MAIN, spawnService, START_SCRIPT, waitForUrl } from '../support/spawn-service.js'

const Main = suite('npm start (src/main/main.ts)')

/**
 * A throwaway project laid out as npm start's script expects, with no build yet: its one source,
 * src/main/cli.ts, compiled by the real TypeScript compiler. Returns the project's copy of the script.
 */
const unbuiltProject = (cliSource: string): { readonly script: string; readonly remove: () => void } => {
  const project = mkdtempSync(join(tmpdir(), 'petstore-start-'))
  for (const directory of ['scripts', 'src/main', 'adapters', 'test']) mkdirSync(join(project, directory), { recursive: true })
  copyFileSync(START_SCRIPT, join(project, 'scripts/start.mjs'))
  symlinkSync(resolve(__dirname, '../../../node_modules'), join(project, 'node_modules'))
  writeFileSync(join(project, 'package-lock.json'), '{}')
  const compilerOptions = {
    rootDir: '.',
    outDir: 'dist',
    incremental: true,
    tsBuildInfoFile: 'dist/.tsbuildinfo',
    module: 'commonjs',
    types: [],
  }
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src'] }))
  writeFileSync(join(project, 'src/main/cli.ts'), cliSource)
  return { script: join(project, 'scripts/start.mjs'), remove: () => rmSync(project, { recursive: true, force: true }) }
}

Main('When no keys are configured outside production, then it prints a generated key with a curl line once, on stderr', async () => {
  const service = spawnService({})
  const url = await waitForUrl(service)
  const key = /API key: (\S+)/.exec(service.stderr())?.[1] ?? ''
  assert.match(service.stderr(), `curl -H 'Authorization: Bearer ${key}' ${url}/v1/pets`)
  assert.is((await send(url, 'GET', '/v1/pets', { key })).status, 200)
  assert.not.match(service.stdout(), key)
  service.child.kill('SIGTERM')
  assert.is(await service.exited, 0)
})

Main('npm start’s script, with the build current, runs the service and stops cleanly on SIGTERM', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY }, START_SCRIPT)
  const { url } = await service.announced()
  assert.is((await send(url, 'GET', '/v1/pets')).status, 200)
  service.child.kill('SIGTERM')
  assert.is(await service.exited, 0)
  // The announcement alone: the script says nothing when there is nothing to compile.
  assert.is(service.stderr(), `${JSON.stringify({ event: 'listening', url })}\n`)
})

Main('npm start’s script, when it must compile, says so on stderr, and when it is done, leaving stdout to the log', async () => {
  const project = unbuiltProject("console.log(JSON.stringify({ msg: 'listening' }))\n")
  try {
    // No coverage for the compiler's process: the tests measure the service's sources only.
    const started = spawnService({ NODE_V8_COVERAGE: '' }, project.script)
    assert.is(await started.exited, 0)
    assert.is(started.stdout(), '{"msg":"listening"}\n')
    assert.match(
      started.stderr(),
      /^npm start: compiling the TypeScript sources into dist\/ \(the first time takes up to a minute\)\.\.\.\n/,
    )
    assert.match(started.stderr(), /\nnpm start: compiled in [0-9]+\.[0-9] s; starting the service\n$/)
  } finally {
    project.remove()
  }
})

Main('npm start’s script, when the sources do not compile, says so on stderr, with the errors, and does not start', async () => {
  const project = unbuiltProject('const port: number = "8080"\n')
  try {
    const started = spawnService({ NODE_V8_COVERAGE: '' }, project.script)
    assert.is.not(await started.exited, 0)
    assert.is(started.stdout(), '')
    assert.match(started.stderr(), "error TS2322: Type 'string' is not assignable to type 'number'")
    assert.match(started.stderr(), /\nnpm start: the compilation failed \(above\); the service was not started\n$/)
  } finally {
    project.remove()
  }
})

Main(
  'When it listens, then it announces its URL and the key it generated in one JSON line on stderr, first, whatever LOG_LEVEL says',
  async () => {
    // --port 0: the port is known from the announcement alone, and the log says nothing at all.
    const service = spawnService({ LOG_LEVEL: 'silent' }, MAIN, ['--port', '0'])
    const announced = await service.announced()
    const { event, url, key = '', ...rest } = announced
    assert.equal([event, rest], ['listening', {}])
    assert.is(key.length, 32)
    assert.match(url, /^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/)
    assert.is((await send(url, 'GET', '/v1/pets', { key })).status, 200)
    service.child.kill('SIGTERM')
    assert.is(await service.exited, 0)
    const [first, ...others] = service.stderr().split('\n')
    assert.is(first, JSON.stringify(announced))
    // The banner for people follows; it holds no other JSON line.
    assert.equal(
      others.filter((line) => line.startsWith('{')),
      [],
    )
    assert.match(service.stderr(), `API key: ${key}`)
    assert.is(service.stdout(), '')
  },
)

Main('When keys are configured, then the announcement gives the URL alone, and is all of stderr, with LOG_LEVEL=warn too', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY, LOG_LEVEL: 'warn' })
  const announced = await service.announced()
  assert.equal(Object.keys(announced), ['event', 'url'])
  assert.is((await send(announced.url, 'GET', '/v1/pets')).status, 200)
  service.child.kill('SIGTERM')
  assert.is(await service.exited, 0)
  assert.is(service.stderr(), `${JSON.stringify(announced)}\n`)
})

Main('When keys are configured, then it serves them and never prints them', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY, LOG_LEVEL: 'trace' })
  const url = await waitForUrl(service)
  assert.is((await send(url, 'GET', '/v1/pets')).status, 200)
  assert.is((await send(url, 'GET', '/v1/pets', { key: 'wrong-key-0123456789' })).status, 401)
  service.child.kill('SIGTERM')
  assert.is(await service.exited, 0)
  assert.not.match(service.stdout() + service.stderr(), TEST_KEY)
})

Main('When NODE_ENV=production and no keys are configured, then it refuses to start naming PETSTORE_API_KEYS', async () => {
  const service = spawnService({ NODE_ENV: 'production' })
  assert.is(await service.exited, 1)
  assert.match(service.stderr(), 'PETSTORE_API_KEYS must list at least one API key when NODE_ENV=production')
})

Main('When NODE_ENV=production and PETSTORE_STORE is not set, then it refuses, saying every pet would be lost', async () => {
  const service = spawnService({ NODE_ENV: 'production', PETSTORE_API_KEYS: TEST_KEY })
  assert.is(await service.exited, 1)
  assert.match(service.stderr(), 'loses every pet on restart')
})

Main('When PETSTORE_STORE=mongodb and the database is down, then it starts, answers 503, and stops cleanly on SIGTERM', async () => {
  const service = spawnService({
    PETSTORE_API_KEYS: TEST_KEY,
    PETSTORE_STORE: 'mongodb',
    MONGODB_URI: 'mongodb://127.0.0.1:1/petstore',
    PETSTORE_MONGODB_TIMEOUT_MS: '500',
  })
  const url = await waitForUrl(service)
  assert.match(service.stdout(), '"store":"mongodb"')
  assert.is((await send(url, 'GET', '/readyz', { key: false })).status, 503)
  assert.is((await send(url, 'GET', '/v1/pets')).status, 503)
  service.child.kill('SIGTERM')
  assert.is(await service.exited, 0)
})

Main('When MONGODB_URI carries an option the driver refuses, then it stops naming MONGODB_URI, without a stack trace', async () => {
  const service = spawnService({
    PETSTORE_API_KEYS: TEST_KEY,
    PETSTORE_STORE: 'mongodb',
    MONGODB_URI: 'mongodb://127.0.0.1:1/petstore?tls=maybe',
  })
  assert.is(await service.exited, 1)
  assert.match(service.stderr(), 'MONGODB_URI is invalid')
  assert.not.match(service.stderr(), /\n\s+at /)
})

Main('When the database of MONGODB_URI is a name MongoDB refuses, then it stops at once with status 1 naming MONGODB_URI', async () => {
  const service = spawnService({
    PETSTORE_API_KEYS: TEST_KEY,
    PETSTORE_STORE: 'mongodb',
    MONGODB_URI: 'mongodb://127.0.0.1:1/pets.v1',
  })
  assert.is(await service.exited, 1)
  assert.match(service.stderr(), 'MONGODB_URI must name in its path a database MongoDB accepts')
  assert.match(service.stderr(), '"pets.v1" contains "."')
  assert.not.match(service.stdout(), 'listening')
})

Main('When a setting is invalid, then it stops naming the variable', async () => {
  const service = spawnService({ PORT: 'abc' })
  assert.is(await service.exited, 1)
  assert.match(service.stderr(), 'PORT must be an integer from 0 to 65535')
})

Main('When the port is taken, then it stops with a message instead of a stack trace', async () => {
  const first = spawnService({ PETSTORE_API_KEYS: TEST_KEY })
  const port = new URL(await waitForUrl(first)).port
  const second = spawnService({ PETSTORE_API_KEYS: TEST_KEY, PORT: port })
  assert.is(await second.exited, 1)
  assert.match(second.stdout(), 'EADDRINUSE')
  // On stderr too, where a harness waiting for the announcement reads: no announcement comes.
  assert.is(second.stderr(), `petstore: cannot start:\n  - cannot listen on 127.0.0.1:${port} (check HOST and PORT): EADDRINUSE\n`)
  first.child.kill('SIGTERM')
  assert.is(await first.exited, 0)
})

Main('When SIGTERM arrives during a request, then that request is answered and the process exits 0', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY })
  const url = new URL(await waitForUrl(service))
  // The service has the request before the signal; the rest of its body comes once shutdown began.
  const held = heldCreate(url, JSON.stringify(aNewPet({ name: 'Rex' })))
  await held.received
  service.child.kill('SIGTERM')
  await service.printed(/shutting down/)
  held.finish()
  const { status, text } = await held.answer
  assert.is(status, 201)
  assert.equal(JSON.parse(text), aPet({ id: 1, name: 'Rex' }))
  assert.is(await service.exited, 0)
})

Main(
  'When SIGTERM arrives during a delayed request (PETSTORE_TEST_TARGET=on), then it is answered at once, without the delay, and the process exits 0',
  async () => {
    const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY, PETSTORE_TEST_TARGET: 'on' })
    const url = await waitForUrl(service)
    await service.printed(/PETSTORE_TEST_TARGET=on/)
    // The contract is read first: after the signal the service takes no new connection.
    const contract = servedBy(url)
    await contract
    let received = (): void => undefined
    const inFlight = new Promise<void>((resolve) => (received = resolve))
    const pending = send(url, 'GET', '/v1/pets', { headers: { prefer: 'delay=10000' }, onContinue: () => received() }, contract)
    await inFlight
    service.child.kill('SIGTERM')
    const response = await pending
    assert.is(response.status, 200)
    // Had it waited the whole 10 s, the delay would be listed as applied.
    assert.is(response.headers.get('preference-applied'), null)
    assert.is(await service.exited, 0)
  },
)

Main(
  'With --stop-on-stdin-close, when standard input closes during a request, then that request is answered and the process exits 0',
  async () => {
    const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY }, MAIN, ['--stop-on-stdin-close'], 'pipe')
    const url = new URL((await service.announced()).url)
    const held = heldCreate(url, JSON.stringify(aNewPet({ name: 'Rex' })))
    await held.received
    service.child.stdin?.end()
    await service.printed(/"stdin":"closed","msg":"shutting down/)
    held.finish()
    const { status, text } = await held.answer
    assert.is(status, 201)
    assert.equal(JSON.parse(text), aPet({ id: 1, name: 'Rex' }))
    assert.is(await service.exited, 0)
  },
)

Main('With PETSTORE_STOP_ON_STDIN_CLOSE=on, a signal during the shutdown its standard input began stops it at once', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY, PETSTORE_STOP_ON_STDIN_CLOSE: 'on' }, MAIN, [], 'pipe')
  const url = new URL((await service.announced()).url)
  const held = heldCreate(url, '{"name":"never sent in full"}', 100)
  await held.received
  service.child.stdin?.end()
  await service.printed(/shutting down/)
  service.child.kill('SIGTERM')
  assert.is(await service.exited, 1)
  assert.match(service.stdout(), 'stopping at once')
  held.destroy()
})

Main('With PETSTORE_STOP_ON_STDIN_CLOSE=on, standard input closing during the shutdown a signal began cuts no request short', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY, PETSTORE_STOP_ON_STDIN_CLOSE: 'on' }, MAIN, [], 'pipe')
  const url = new URL((await service.announced()).url)
  const held = heldCreate(url, JSON.stringify(aNewPet({ name: 'Rex' })))
  await held.received
  service.child.kill('SIGTERM')
  await service.printed(/shutting down/)
  service.child.stdin?.end()
  await service.printed(/standard input closed during shutdown/)
  held.finish()
  assert.is((await held.answer).status, 201)
  assert.is(await service.exited, 0)
})

Main('When a second signal arrives during shutdown, then it stops at once', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY })
  const url = new URL(await waitForUrl(service))
  // A request that never finishes would hold a graceful shutdown for its whole deadline.
  const held = heldCreate(url, '{"name":"never sent in full"}', 100)
  await held.received
  service.child.kill('SIGTERM')
  await service.printed(/shutting down/)
  service.child.kill('SIGINT')
  // Status 1 is the second signal's alone: a graceful shutdown, even one that met its deadline, exits 0.
  assert.is(await service.exited, 1)
  assert.match(service.stdout(), 'second signal: stopping at once')
  held.destroy()
})

Main('When PETSTORE_SEED=demo, then the start-up log says the store was seeded, before the first request is served', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY, PETSTORE_SEED: 'demo' })
  const url = await waitForUrl(service)
  assert.match(service.stdout(), 'seeded the store with 36 pets from demo')
  const first = await send(url, 'GET', '/v1/pets')
  assert.is((first.body as unknown[]).length, 20)
  service.child.kill('SIGTERM')
  assert.is(await service.exited, 0)
})

Main('When a seed entry is refused, then it stops naming PETSTORE_SEED[index].field, with every other bad setting', async () => {
  const file = join(tmpdir(), `petstore-seed-${process.pid}.json`)
  writeFileSync(file, JSON.stringify([aNewPet(), aNewPet({ name: 7 })]))
  const service = spawnService({ PETSTORE_SEED: file, PORT: 'abc' })
  assert.is(await service.exited, 1)
  assert.match(service.stderr(), 'PORT must be an integer from 0 to 65535')
  assert.match(service.stderr(), 'PETSTORE_SEED[1].name: must be a string')
})

Main('When PETSTORE_TEST_TARGET=on with the demo seed, then each key starts from the seed and resets its own sandbox', async () => {
  const service = spawnService({ PETSTORE_API_KEYS: `${TEST_KEY},${OTHER_KEY}`, PETSTORE_SEED: 'demo', PETSTORE_TEST_TARGET: 'on' })
  const url = await waitForUrl(service)
  try {
    assert.match(service.stdout(), 'each sandbox starts from the seed demo (36 pets)')
    const created = await send(url, 'POST', '/v1/pets', { body: aNewPet({ name: 'Mine' }) })
    assert.is((created.body as { id: number }).id, 37)
    assert.is((await send(url, 'GET', '/v1/pets/37', { key: OTHER_KEY })).status, 404)
    assert.is((await send(url, 'POST', '/v1/sandbox/reset')).status, 204)
    assert.is((await send(url, 'GET', '/v1/pets/37')).status, 404)
  } finally {
    service.child.kill('SIGTERM')
  }
  assert.is(await service.exited, 0)
})

Main(
  'When PETSTORE_TEST_TARGET=on with PETSTORE_SANDBOX_MAX=1, then one sandbox is made at a time, and its key is never logged',
  async () => {
    const service = spawnService({
      PETSTORE_API_KEYS: TEST_KEY,
      PETSTORE_TEST_TARGET: 'on',
      PETSTORE_SANDBOX_MAX: '1',
      PETSTORE_SANDBOX_IDLE_SECONDS: '30',
    })
    const url = await waitForUrl(service)
    const keys: string[] = []
    let keyId = ''
    try {
      const made = await send(url, 'POST', '/v1/sandboxes')
      const { key, idleSeconds, ...rest } = made.body as { key: string; keyId: string; idleSeconds: number }
      keyId = rest.keyId
      keys.push(key)
      assert.equal([made.status, idleSeconds], [201, 30])
      assert.is((await send(url, 'GET', `/v1/pets/${key}`, { key })).status, 400)
      const refused = await send(url, 'POST', '/v1/sandboxes', { key })
      assert.equal([refused.status, (refused.body as { code: string }).code], [503, 'sandbox_limit_reached'])
      assert.ok(Number(refused.headers.get('retry-after')) <= 30)
      assert.is((await send(url, 'DELETE', '/v1/sandbox', { key })).status, 204)
      const next = await send(url, 'POST', '/v1/sandboxes')
      assert.is(next.status, 201)
      keys.push((next.body as { key: string }).key)
    } finally {
      service.child.kill('SIGTERM')
    }
    assert.is(await service.exited, 0)
    assert.match(service.stdout(), `"keyId":"${keyId}"`)
    assert.match(service.stdout(), '/v1/pets/[redacted]')
    for (const key of keys) assert.not.match(service.stdout() + service.stderr(), key)
  },
)

Main.run()
