import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { send, TEST_KEY } from '../support/start-api.js'
import { MAIN, spawnService, waitForUrl } from '../support/spawn-service.js'
import { variablesReadConfigReads } from '../support/settings-read.js'

const Cli = suite('The petstore-service command (src/main/cli.ts)')

Cli('--help lists every setting the service reads, the options and the announcement, and starts nothing', async () => {
  const help = spawnService({}, MAIN, ['--help'])
  assert.is(await help.exited, 0)
  for (const name of variablesReadConfigReads()) assert.match(help.stdout(), new RegExp(`^  ${name} `, 'm'), name)
  for (const option of ['port', 'seed', 'test-target']) assert.match(help.stdout(), new RegExp(`^  --${option} <value> `, 'm'), option)
  assert.match(help.stdout(), /^ {2}--stop-on-stdin-close {2,}sets PETSTORE_STOP_ON_STDIN_CLOSE=on$/m)
  assert.match(help.stdout(), '{"event":"listening","url":"http://127.0.0.1:8080"}')
  assert.is(help.stderr(), '')
})

Cli('a flag wins over its environment variable', async () => {
  const service = spawnService(
    // Each of these would stop start-up, or leave the feature off, were the flag not to win.
    {
      PETSTORE_API_KEYS: TEST_KEY,
      PORT: 'not-a-port',
      PETSTORE_SEED: 'no-such-file.json',
      PETSTORE_TEST_TARGET: 'off',
      PETSTORE_STOP_ON_STDIN_CLOSE: 'off',
    },
    MAIN,
    ['--port', '0', '--seed', 'demo', '--test-target=on', '--stop-on-stdin-close'],
    'pipe',
  )
  const url = await waitForUrl(service)
  assert.is((await send(url, 'GET', '/v1/pets/6')).status, 200)
  assert.is((await send(url, 'POST', '/v1/sandbox/reset')).status, 204)
  assert.is((await send(url, 'GET', '/v1/pets', { headers: { prefer: 'fault=503' } })).status, 503)
  service.child.stdin?.end()
  assert.is(await service.exited, 0)
  assert.match(service.stdout(), '"stdin":"closed"')
})

Cli('--help lists the settings in three groups: what an operator sets, features and tuning, the test target', async () => {
  const help = spawnService({}, MAIN, ['--help'])
  assert.is(await help.exited, 0)
  const groups = [
    [
      'What an operator sets',
      ['PORT', 'HOST', 'PETSTORE_API_KEYS', 'NODE_ENV', 'PETSTORE_STORE', 'MONGODB_URI', 'PETSTORE_CURSOR_SECRET', 'LOG_LEVEL'],
    ],
    [
      'Optional features and tuning',
      [
        'PETSTORE_MONGODB_TIMEOUT_MS',
        'PETSTORE_MONGODB_WRITE_CONCERN',
        'PETSTORE_MAX_BODY_BYTES',
        'PETSTORE_CORS_ORIGINS',
        'PETSTORE_RATE_LIMIT',
        'PETSTORE_METRICS',
        'PETSTORE_STOP_ON_STDIN_CLOSE',
      ],
    ],
    ['The test target', ['PETSTORE_TEST_TARGET', 'PETSTORE_SANDBOX_MAX', 'PETSTORE_SANDBOX_IDLE_SECONDS', 'PETSTORE_SEED']],
  ] as const
  // Each heading line of the help ("…:") and the variables listed under it.
  const listed = help
    .stdout()
    .split(/^(?=\S[^\n]*:$)/m)
    .map((section): [string, string[]] => [
      section.slice(0, section.indexOf(':\n')),
      [...section.matchAll(/^ {2}([A-Z_]+) /gm)].map((match) => match[1] ?? ''),
    ])
    .filter(([, names]) => names.length > 0)
  assert.equal(listed, groups)
})

Cli('the removed PETSTORE_SANDBOXES and PETSTORE_FAULTS stop start-up naming PETSTORE_TEST_TARGET=on', async () => {
  const service = spawnService({ PETSTORE_SANDBOXES: 'per-key', PETSTORE_FAULTS: 'on' })
  assert.is(await service.exited, 1)
  for (const name of ['PETSTORE_SANDBOXES', 'PETSTORE_FAULTS'])
    assert.match(service.stderr(), `${name} is no longer read: set PETSTORE_TEST_TARGET=on`)
})

Cli('a flag’s value is checked as its variable’s is: a bad one stops start-up naming the variable', async () => {
  const service = spawnService({}, MAIN, ['--port', 'eighty'])
  assert.is(await service.exited, 1)
  assert.match(service.stderr(), 'PORT must be an integer from 0 to 65535')
})

Cli(
  'an unknown flag exits 2 naming it, and so does a flag without its value, a switch given one, or an argument that is no flag',
  async () => {
    for (const [args, named] of [
      [['--prot', '8081'], "Unknown option '--prot'"],
      [['--port'], "Option '--port <value>' argument missing"],
      [['--stop-on-stdin-close=on'], "Option '--stop-on-stdin-close' does not take an argument"],
      [['8081'], "Unexpected argument '8081'"],
    ] as const) {
      const refused = spawnService({}, MAIN, args)
      assert.is(await refused.exited, 2, named)
      assert.match(refused.stderr(), `petstore-service: ${named}`)
      assert.match(refused.stderr(), 'petstore-service --help lists the options')
      assert.is(refused.stdout(), '')
    }
  },
)

Cli('an option given twice exits 2 naming it, whatever the values: which one was meant cannot be told', async () => {
  for (const [args, option] of [
    // The last value is one the service refuses, so that a service taking it would exit, not run.
    [['--port', '0', '--port', 'eighty'], '--port'],
    [['--seed=demo', '--test-target', 'on', '--seed', 'no-such-file.json'], '--seed'],
  ] as const) {
    const refused = spawnService({}, MAIN, args)
    assert.is(await refused.exited, 2, option)
    assert.match(refused.stderr(), `petstore-service: Option '${option} <value>' is given more than once`)
    assert.match(refused.stderr(), 'petstore-service --help lists the options')
    assert.is(refused.stdout(), '')
  }
})

Cli.run()
