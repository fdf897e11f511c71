import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readConfig } from '../../src/main/config.js'
import { DEMO_PETS } from '../../src/main/seed/demo-pets.js'

const generated = (): string => 'generated-key-for-tests'
const KEY = 'configured-key-0123456789'
const Config = suite('readConfig')

Config('uses the documented defaults and generates a key outside production', () => {
  assert.equal(
    readConfig({}, generated),
    E.right({
      store: { kind: 'memory' },
      port: 8080,
      host: '127.0.0.1',
      apiKeys: { source: 'generated', key: 'generated-key-for-tests' },
      maxBodyBytes: 1048576,
      cursorSecret: undefined,
      logLevel: 'info',
      corsOrigins: undefined,
      rateLimit: undefined,
      metrics: true,
      seed: undefined,
      testTarget: false,
      madeSandboxes: { max: 1000, idleSeconds: 3600 },
      stopOnStdinClose: false,
    }),
  )
})

Config('reads every setting from the environment', () => {
  const config = readConfig(
    {
      PORT: '9090',
      HOST: '0.0.0.0',
      PETSTORE_API_KEYS: `${KEY}, second-key-0123456789`,
      PETSTORE_MAX_BODY_BYTES: '2048',
      PETSTORE_CURSOR_SECRET: 'cursor-secret-0123456789',
      LOG_LEVEL: 'warn',
      PETSTORE_CORS_ORIGINS: 'https://app.example.com, http://127.0.0.1:5173',
      PETSTORE_RATE_LIMIT: '600',
      PETSTORE_METRICS: 'off',
      PETSTORE_SEED: 'demo',
      PETSTORE_TEST_TARGET: 'on',
      PETSTORE_SANDBOX_MAX: '50',
      PETSTORE_SANDBOX_IDLE_SECONDS: '600',
      PETSTORE_STOP_ON_STDIN_CLOSE: 'on',
    },
    generated,
  )
  assert.equal(
    config,
    E.right({
      store: { kind: 'memory' },
      port: 9090,
      host: '0.0.0.0',
      apiKeys: { source: 'configured', keys: [KEY, 'second-key-0123456789'] },
      maxBodyBytes: 2048,
      cursorSecret: 'cursor-secret-0123456789',
      logLevel: 'warn',
      corsOrigins: ['https://app.example.com', 'http://127.0.0.1:5173'],
      rateLimit: 600,
      metrics: false,
      seed: { source: 'demo', pets: DEMO_PETS.map((pet) => ({ status: 'available', ...pet })) },
      testTarget: true,
      madeSandboxes: { max: 50, idleSeconds: 600 },
      stopOnStdinClose: true,
    }),
  )
})

Config('refuses to start in production without keys', () => {
  assert.equal(
    readConfig({ NODE_ENV: 'production', PETSTORE_STORE: 'memory' }, generated),
    E.left(['PETSTORE_API_KEYS must list at least one API key when NODE_ENV=production']),
  )
})

Config('refuses the implicit in-memory store in production, saying every pet would be lost', () => {
  const result = readConfig({ NODE_ENV: 'production', PETSTORE_API_KEYS: KEY }, generated)
  assert.ok(
    E.isLeft(result) && /PETSTORE_STORE must be set when NODE_ENV=production: .*loses every pet on restart/.test(result.left.join()),
  )
  assert.ok(E.isRight(readConfig({ NODE_ENV: 'production', PETSTORE_API_KEYS: KEY, PETSTORE_STORE: 'memory' }, generated)))
})

Config('reads the MongoDB settings, the database from the path of the URI', () => {
  const fromUri = readConfig({ PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example:27017/pets?replicaSet=rs0' }, generated)
  assert.equal(E.isRight(fromUri) && fromUri.right.store, {
    kind: 'mongodb',
    uri: 'mongodb://db.example:27017/pets?replicaSet=rs0',
    dbName: 'pets',
    timeoutMs: 2000,
    writeConcern: 'majority',
  })
  const explicit = readConfig(
    {
      PETSTORE_STORE: 'mongodb',
      MONGODB_URI: 'mongodb+srv://cluster.example/other',
      PETSTORE_MONGODB_TIMEOUT_MS: '1000',
      PETSTORE_MONGODB_WRITE_CONCERN: '1',
    },
    generated,
  )
  assert.equal(E.isRight(explicit) && explicit.right.store, {
    kind: 'mongodb',
    uri: 'mongodb+srv://cluster.example/other',
    dbName: 'other',
    timeoutMs: 1000,
    writeConcern: 1,
  })
})

Config('names each missing or malformed MongoDB setting', () => {
  const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
    [{ PETSTORE_STORE: 'postgres' }, 'PETSTORE_STORE must be memory or mongodb'],
    [{ PETSTORE_STORE: 'mongodb' }, 'MONGODB_URI is required when PETSTORE_STORE=mongodb'],
    [
      { PETSTORE_STORE: 'mongodb', MONGODB_URI: 'http://db.example/pets' },
      'MONGODB_URI is not a valid MongoDB connection string (mongodb:// or mongodb+srv://)',
    ],
    [
      { PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example:27017' },
      'MONGODB_URI names no database: add one to its path (mongodb+srv://host/petstore)',
    ],
    [
      { PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example/pets', PETSTORE_MONGODB_TIMEOUT_MS: 'soon' },
      'PETSTORE_MONGODB_TIMEOUT_MS must be an integer from 100 to 60000',
    ],
    [
      { PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example/pets', PETSTORE_MONGODB_WRITE_CONCERN: 'all' },
      'PETSTORE_MONGODB_WRITE_CONCERN must be majority or a number of nodes (1-9)',
    ],
    [
      { PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example/pets', PETSTORE_MONGODB_WRITE_CONCERN: '0' },
      'PETSTORE_MONGODB_WRITE_CONCERN must be majority or a number of nodes (1-9)',
    ],
  ]
  for (const [env, problem] of cases) assert.equal(readConfig(env, generated), E.left([problem]), problem)
})

Config('refuses at start a database name MongoDB would refuse, from the path of MONGODB_URI, naming MONGODB_URI', () => {
  const rule = 'MONGODB_URI must name in its path a database MongoDB accepts, 1 to 63 bytes without / \\ . space " $ or NUL:'
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['pets.v1', `${rule} "pets.v1" contains "."`],
    ['a/b', `${rule} "a/b" contains "/"`],
    ['a\\b', `${rule} "a\\\\b" contains "\\\\"`],
    ['my pets', `${rule} "my pets" contains " "`],
    ['say"hi"', `${rule} "say\\"hi\\"" contains "\\""`],
    ['cost$', `${rule} "cost$" contains "$"`],
    ['nul\0', `${rule} "nul\\u0000" contains "\\u0000"`],
    ['x'.repeat(64), `${rule} "${'x'.repeat(64)}" is 64 bytes long`],
    // 32 two-byte characters: 32 characters, but 64 bytes.
    ['é'.repeat(32), `${rule} "${'é'.repeat(32)}" is 64 bytes long`],
  ]
  const uriOf = (name: string) => `mongodb://db.example/${encodeURIComponent(name)}`
  for (const [name, problem] of cases) {
    assert.equal(readConfig({ PETSTORE_STORE: 'mongodb', MONGODB_URI: uriOf(name) }, generated), E.left([problem]))
  }
  assert.equal(
    readConfig({ PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example/my%20pets' }, generated),
    E.left([`${rule} "my pets" contains " "`]),
  )
  // The longest name MongoDB accepts, and one that only looks odd, are fine.
  for (const name of ['x'.repeat(63), 'pets_v1-2026', 'Ünïcode']) {
    const read = readConfig({ PETSTORE_STORE: 'mongodb', MONGODB_URI: uriOf(name) }, generated)
    assert.is(E.isRight(read) && read.right.store.kind === 'mongodb' && read.right.store.dbName, name)
  }
})

Config('refuses at start a setting it no longer reads, naming what replaced it', () => {
  assert.equal(
    readConfig({ PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example/pets', MONGODB_DB: 'other' }, generated),
    E.left(['MONGODB_DB is no longer read: name the database in the path of MONGODB_URI (mongodb+srv://host/petstore)']),
  )
  assert.equal(
    readConfig({ MONGODB_DB: 'other' }, generated),
    E.left(['MONGODB_DB is no longer read: name the database in the path of MONGODB_URI (mongodb+srv://host/petstore)']),
  )
})

Config('PETSTORE_SANDBOXES and PETSTORE_FAULTS, whatever their value, stop start-up naming PETSTORE_TEST_TARGET=on', () => {
  for (const name of ['PETSTORE_SANDBOXES', 'PETSTORE_FAULTS']) {
    for (const value of ['per-key', 'on', 'off']) {
      assert.equal(
        readConfig({ [name]: value }, generated),
        E.left([`${name} is no longer read: set PETSTORE_TEST_TARGET=on, which turns on sandboxes and faults together`]),
        `${name}=${value}`,
      )
    }
  }
})

Config('reports a bad database name together with every other problem', () => {
  assert.equal(
    readConfig(
      {
        PETSTORE_STORE: 'mongodb',
        MONGODB_URI: 'mongodb://db.example/a.b',
        PETSTORE_MONGODB_TIMEOUT_MS: 'soon',
        PORT: 'x',
      },
      generated,
    ),
    E.left([
      'MONGODB_URI must name in its path a database MongoDB accepts, 1 to 63 bytes without / \\ . space " $ or NUL: "a.b" contains "."',
      'PETSTORE_MONGODB_TIMEOUT_MS must be an integer from 100 to 60000',
      'PORT must be an integer from 0 to 65535',
    ]),
  )
})

Config('names each invalid variable, and never the key', () => {
  const result = readConfig(
    { PORT: 'abc', PETSTORE_API_KEYS: 'short-key', PETSTORE_MAX_BODY_BYTES: '0', PETSTORE_CURSOR_SECRET: 'short', LOG_LEVEL: 'loud' },
    generated,
  )
  assert.equal(
    result,
    E.left([
      'PORT must be an integer from 0 to 65535',
      'PETSTORE_MAX_BODY_BYTES must be an integer from 1 to 104857600',
      'PETSTORE_API_KEYS is invalid: key 1 is shorter than 16 characters',
      'PETSTORE_CURSOR_SECRET must be at least 16 characters',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ]),
  )
})

Config('refuses a key with characters a Bearer token cannot carry', () => {
  assert.equal(
    readConfig({ PETSTORE_API_KEYS: `${KEY},has spaces inside the key` }, generated),
    E.left(['PETSTORE_API_KEYS is invalid: key 2 has characters a Bearer token cannot carry']),
  )
})

Config('accepts * for CORS and names malformed CORS, rate-limit and metrics settings', () => {
  const star = readConfig({ PETSTORE_CORS_ORIGINS: '*' }, generated)
  assert.is(E.isRight(star) && star.right.corsOrigins, '*')
  const ipv6 = readConfig({ PETSTORE_CORS_ORIGINS: 'http://[::1]:5173', PETSTORE_RATE_LIMIT: ' 5 ' }, generated)
  assert.equal(E.isRight(ipv6) && [ipv6.right.corsOrigins, ipv6.right.rateLimit], [['http://[::1]:5173'], 5])
  assert.equal(
    readConfig({ PETSTORE_CORS_ORIGINS: 'app.example.com', PETSTORE_RATE_LIMIT: '0', PETSTORE_METRICS: 'maybe' }, generated),
    E.left([
      'PETSTORE_CORS_ORIGINS must be * or comma-separated origins like https://app.example.com (not: app.example.com)',
      'PETSTORE_RATE_LIMIT must be off or a number of requests per minute from 1 to 1000000',
      'PETSTORE_METRICS must be on or off',
    ]),
  )
})

Config('PETSTORE_TEST_TARGET=on turns on the whole test target; off by default', () => {
  const testTargetOf = (text: string): boolean | undefined => {
    const config = readConfig({ PETSTORE_TEST_TARGET: text }, generated)
    return E.isRight(config) ? config.right.testTarget : undefined
  }
  assert.equal([testTargetOf(''), testTargetOf('off'), testTargetOf('on')], [false, false, true])
})

Config('names a PETSTORE_TEST_TARGET other than off or on, with the other bad settings', () => {
  assert.equal(
    readConfig({ PORT: 'abc', PETSTORE_TEST_TARGET: 'yes' }, generated),
    E.left(['PORT must be an integer from 0 to 65535', 'PETSTORE_TEST_TARGET must be off or on']),
  )
  for (const text of ['ON', 'true', '1', ' on', 'per-key'])
    assert.equal(readConfig({ PETSTORE_TEST_TARGET: text }, generated), E.left(['PETSTORE_TEST_TARGET must be off or on']), text)
})

Config('PETSTORE_STOP_ON_STDIN_CLOSE is off unless on; any other value stops start-up, naming it', () => {
  const stops = (text: string): boolean | undefined => {
    const config = readConfig({ PETSTORE_STOP_ON_STDIN_CLOSE: text }, generated)
    return E.isRight(config) ? config.right.stopOnStdinClose : undefined
  }
  assert.equal([stops(''), stops('off'), stops('on')], [false, false, true])
  for (const text of ['ON', 'true', '1', 'yes'])
    assert.equal(
      readConfig({ PETSTORE_STOP_ON_STDIN_CLOSE: text }, generated),
      E.left(['PETSTORE_STOP_ON_STDIN_CLOSE must be off or on']),
      text,
    )
})

Config('refuses a port beyond 65535', () => {
  assert.ok(E.isLeft(readConfig({ PORT: '70000' }, generated)))
})

/** Reads seed files from this map instead of the disk. */
const files =
  (contents: Record<string, string>) =>
  (path: string): string => {
    const text = contents[path]
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' })
    return text
  }

Config('reads a seed file of NewPet objects in order, resolving the default status as createPet does', () => {
  const seed = JSON.stringify([
    { name: 'Rex', categoryId: 1 },
    { name: 'Zoë', categoryId: 2, status: 'sold', id: 99 },
  ])
  const config = readConfig({ PETSTORE_SEED: '/seeds/pets.json' }, generated, files({ '/seeds/pets.json': seed }))
  assert.equal(E.isRight(config) && config.right.seed, {
    source: '/seeds/pets.json',
    pets: [
      { name: 'Rex', categoryId: 1, status: 'available' },
      { name: 'Zoë', categoryId: 2, status: 'sold' },
    ],
  })
})

Config('When a seed entry is refused by NewPet, then start-up names its index and field, with every other bad setting', () => {
  const seed = JSON.stringify([
    { name: 'ok', categoryId: 1 },
    { name: 7, categoryId: 1 },
    'Rex',
    { name: 'x', categoryId: 1.5, status: 'lost' },
  ])
  assert.equal(
    readConfig({ PETSTORE_SEED: 'seed.json', PORT: 'abc' }, generated, files({ 'seed.json': seed })),
    E.left([
      'PORT must be an integer from 0 to 65535',
      'PETSTORE_SEED[1].name: must be a string',
      'PETSTORE_SEED[2]: must be a JSON object (a NewPet)',
      'PETSTORE_SEED[3].categoryId: must be an integer',
      'PETSTORE_SEED[3].status: must be one of available, pending, sold',
    ]),
  )
})

Config('When a seed is not JSON, not an array or not readable, then start-up says so, naming PETSTORE_SEED', () => {
  const read = files({ 'text.json': 'Rex, Zoë', 'object.json': '{"name":"Rex","categoryId":1}' })
  const problemOf = (path: string): string => {
    const config = readConfig({ PETSTORE_SEED: path }, generated, read)
    return E.isLeft(config) ? config.left.join('\n') : 'accepted'
  }
  assert.match(problemOf('text.json'), /^PETSTORE_SEED: text\.json is not valid JSON: /)
  assert.is(problemOf('object.json'), 'PETSTORE_SEED: object.json must hold a JSON array of pets (NewPet objects)')
  assert.is(problemOf('missing.json'), 'PETSTORE_SEED: cannot read missing.json (ENOENT); set demo or the path of a JSON file')
})

Config('reports a problem with every setting at once, each naming its variable: removed settings first, the seed last', () => {
  const env = {
    MONGODB_DB: 'pets',
    PETSTORE_STORE: 'mongodb',
    MONGODB_URI: 'mongodb://db.example',
    PETSTORE_MONGODB_TIMEOUT_MS: 'soon',
    PETSTORE_MONGODB_WRITE_CONCERN: 'all',
    PORT: 'abc',
    PETSTORE_MAX_BODY_BYTES: '0',
    PETSTORE_API_KEYS: 'short-key',
    PETSTORE_CURSOR_SECRET: 'short',
    LOG_LEVEL: 'loud',
    PETSTORE_CORS_ORIGINS: 'app.example.com',
    PETSTORE_RATE_LIMIT: '0',
    PETSTORE_METRICS: 'maybe',
    PETSTORE_STOP_ON_STDIN_CLOSE: 'yes',
    PETSTORE_TEST_TARGET: 'yes',
    PETSTORE_SANDBOX_MAX: '0',
    PETSTORE_SANDBOX_IDLE_SECONDS: '0',
    PETSTORE_SEED: 'missing.json',
  }
  assert.equal(
    readConfig(env, generated, files({})),
    E.left([
      'MONGODB_DB is no longer read: name the database in the path of MONGODB_URI (mongodb+srv://host/petstore)',
      'MONGODB_URI names no database: add one to its path (mongodb+srv://host/petstore)',
      'PETSTORE_MONGODB_TIMEOUT_MS must be an integer from 100 to 60000',
      'PETSTORE_MONGODB_WRITE_CONCERN must be majority or a number of nodes (1-9)',
      'PORT must be an integer from 0 to 65535',
      'PETSTORE_MAX_BODY_BYTES must be an integer from 1 to 104857600',
      'PETSTORE_API_KEYS is invalid: key 1 is shorter than 16 characters',
      'PETSTORE_CURSOR_SECRET must be at least 16 characters',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'PETSTORE_CORS_ORIGINS must be * or comma-separated origins like https://app.example.com (not: app.example.com)',
      'PETSTORE_RATE_LIMIT must be off or a number of requests per minute from 1 to 1000000',
      'PETSTORE_METRICS must be on or off',
      'PETSTORE_STOP_ON_STDIN_CLOSE must be off or on',
      'PETSTORE_TEST_TARGET must be off or on',
      'PETSTORE_SANDBOX_MAX must be an integer from 1 to 100000',
      'PETSTORE_SANDBOX_IDLE_SECONDS must be an integer from 1 to 604800',
      'PETSTORE_SEED: cannot read missing.json (ENOENT); set demo or the path of a JSON file',
    ]),
  )
})

Config('The demo seed has at least 30 pets, every status, several categories and a name beyond ASCII', () => {
  assert.ok(DEMO_PETS.length >= 30)
  assert.equal([...new Set(DEMO_PETS.map((pet) => pet.status))].sort(), ['available', 'pending', 'sold'])
  assert.ok(new Set(DEMO_PETS.map((pet) => pet.categoryId)).size >= 3)
  assert.ok(DEMO_PETS.some((pet) => /[^\x00-\x7f]/.test(pet.name)))
})

Config('refuses the test target on MongoDB at start, saying why', () => {
  const config = readConfig(
    { PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example:27017/pets', PETSTORE_TEST_TARGET: 'on' },
    generated,
  )
  assert.ok(E.isLeft(config))
  assert.match(
    E.isLeft(config) ? config.left.join('\n') : '',
    /^PETSTORE_TEST_TARGET=on needs the embedded store \(PETSTORE_STORE=memory\)/,
  )
  assert.ok(E.isRight(readConfig({ PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://db.example:27017/pets' }, generated)))
})

Config('a test-target override set while the test target is off stops start-up, naming it and the switch', () => {
  for (const env of [{}, { PETSTORE_TEST_TARGET: 'off' }]) {
    assert.equal(
      readConfig({ ...env, PETSTORE_SANDBOX_MAX: '50', PETSTORE_SANDBOX_IDLE_SECONDS: '600' }, generated),
      E.left([
        'PETSTORE_SANDBOX_MAX is read only with PETSTORE_TEST_TARGET=on: unset it, or turn the test target on',
        'PETSTORE_SANDBOX_IDLE_SECONDS is read only with PETSTORE_TEST_TARGET=on: unset it, or turn the test target on',
      ]),
    )
  }
  assert.ok(E.isRight(readConfig({ PETSTORE_SANDBOX_MAX: '', PETSTORE_SANDBOX_IDLE_SECONDS: '' }, generated)))
})

Config('names a PETSTORE_SANDBOX_MAX or PETSTORE_SANDBOX_IDLE_SECONDS that is not a whole number in range, each on its own line', () => {
  assert.equal(
    readConfig({ PETSTORE_TEST_TARGET: 'on', PETSTORE_SANDBOX_MAX: '0', PETSTORE_SANDBOX_IDLE_SECONDS: '1h' }, generated),
    E.left([
      'PETSTORE_SANDBOX_MAX must be an integer from 1 to 100000',
      'PETSTORE_SANDBOX_IDLE_SECONDS must be an integer from 1 to 604800',
    ]),
  )
  assert.equal(
    readConfig({ PETSTORE_TEST_TARGET: 'on', PETSTORE_SANDBOX_MAX: '100001', PETSTORE_SANDBOX_IDLE_SECONDS: '604801' }, generated),
    E.left([
      'PETSTORE_SANDBOX_MAX must be an integer from 1 to 100000',
      'PETSTORE_SANDBOX_IDLE_SECONDS must be an integer from 1 to 604800',
    ]),
  )
})

const MIB = 1024 * 1024

Config('a PETSTORE_SANDBOX_MAX whose sandboxes at their budget would not fit in half the heap stops start-up, naming what fits', () => {
  // Half of a 1 GiB heap holds 256 sandboxes of 2 MiB: the configured key's and 255 made ones.
  const env = { PETSTORE_TEST_TARGET: 'on', PETSTORE_API_KEYS: KEY }
  assert.equal(
    readConfig({ ...env, PETSTORE_SANDBOX_MAX: '256' }, generated, undefined, 1024 * MIB),
    E.left([
      "PETSTORE_SANDBOX_MAX=256 does not fit in memory: half of this process's heap (1024.0 MiB) holds 256 sandboxes at their " +
        'budget of 2.0 MiB, and the configured keys have 1; set at most 255, or give node a larger heap (--max-old-space-size)',
    ]),
  )
  const fits = readConfig({ ...env, PETSTORE_SANDBOX_MAX: '255' }, generated, undefined, 1024 * MIB)
  assert.equal(E.isRight(fits) && fits.right.madeSandboxes, { max: 255, idleSeconds: 3600 })
  // The seed's pets cost every sandbox too.
  assert.ok(E.isLeft(readConfig({ ...env, PETSTORE_SANDBOX_MAX: '255', PETSTORE_SEED: 'demo' }, generated, undefined, 1024 * MIB)))
})

Config('unset, PETSTORE_SANDBOX_MAX is as many as fit in half the heap when fewer than 1000, and start-up says so', () => {
  const config = readConfig({ PETSTORE_TEST_TARGET: 'on', PETSTORE_API_KEYS: KEY }, generated, undefined, 1024 * MIB)
  assert.equal(E.isRight(config) && config.right.madeSandboxes, {
    max: 255,
    idleSeconds: 3600,
    lowered:
      "PETSTORE_SANDBOX_MAX is unset: at most 255 made sandboxes, not 1000: half of this process's heap (1024.0 MiB) holds 256 " +
      'sandboxes at their budget of 2.0 MiB, and the configured keys have 1',
  })
  const roomy = readConfig({ PETSTORE_TEST_TARGET: 'on', PETSTORE_API_KEYS: KEY }, generated, undefined, 4096 * MIB)
  assert.equal(E.isRight(roomy) && roomy.right.madeSandboxes, { max: 1000, idleSeconds: 3600 })
  assert.equal(
    readConfig({ PETSTORE_TEST_TARGET: 'on', PETSTORE_API_KEYS: KEY }, generated, undefined, MIB),
    E.left([
      "PETSTORE_TEST_TARGET=on leaves no room for a made sandbox: half of this process's heap (1.0 MiB) holds 0 sandboxes at " +
        'their budget of 2.0 MiB, and the configured keys have 1; give node a larger heap (--max-old-space-size)',
    ]),
  )
})

Config.run()
