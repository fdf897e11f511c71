import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type ServiceProcess, waitForUrl, watched } from '../support/spawn-service.js'
import { variablesReadConfigReads } from '../support/settings-read.js'
import { send, TEST_KEY } from '../support/start-api.js'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

interface Finished {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs a command as a process group of its own (npm exec's child is then signalled with it), with
 * no coverage: the tests measure the service's sources only, not npm's, tsc's or the package's
 * compiled copy. npm's own variables are left out, so that `npm test` does not configure it. Its
 * standard input is empty, or with `stdin: 'pipe'` a pipe the test holds.
 */
const started = (
  command: string,
  args: ReadonlyArray<string>,
  cwd: string,
  env: Record<string, string> = {},
  stdin: 'ignore' | 'pipe' = 'ignore',
): ServiceProcess => {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)))
  const child = spawn(command, args, {
    cwd,
    env: { ...inherited, NODE_V8_COVERAGE: '', ...env },
    stdio: [stdin, 'pipe', 'pipe'],
    detached: true,
  })
  return watched(child)
}

const finished = async (command: string, args: ReadonlyArray<string>, cwd: string): Promise<Finished> => {
  const run = started(command, args, cwd)
  const code = await run.exited
  return { code, stdout: run.stdout(), stderr: run.stderr() }
}

/** npm as `npm test` runs it (npm_execpath), or the one on the PATH. */
const npm = (args: ReadonlyArray<string>, cwd: string): Promise<Finished> => {
  const cli = process.env.npm_execpath
  return cli === undefined ? finished('npm', args, cwd) : finished(process.execPath, [cli, ...args], cwd)
}

const succeeded = (what: string, run: Finished): Finished => {
  if (run.code !== 0) throw new Error(`${what} failed (${String(run.code)}):\n${run.stdout}\n${run.stderr}`)
  return run
}

/** Every file under `directory`, relative to it. */
const filesUnder = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)))

const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(1)} MB`

interface Packed {
  readonly tarball: string
  readonly size: number
  readonly files: ReadonlyArray<string>
  readonly install: string
}

const Package = suite<{ packed?: Packed }>('The package: npm pack, installed from its tarball in an empty folder')

// The one slow step, done once for every test below: pack (npm runs `prepare`, which compiles),
// then install the tarball as a user would, from npm's cache where it can.
Package.before(async (context) => {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-package-'))
  const packed = JSON.parse(
    succeeded('npm pack', await npm(['pack', '--json', '--pack-destination', folder], ROOT)).stdout,
  ) as ReadonlyArray<{
    readonly filename: string
    readonly size: number
    readonly files: ReadonlyArray<{ readonly path: string }>
  }>
  const [manifest] = packed
  if (manifest === undefined) throw new Error('npm pack listed no package')
  const install = join(folder, 'install')
  mkdirSync(install)
  const tarball = join(folder, manifest.filename)
  succeeded('npm install', await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], install))
  context.packed = { tarball, size: manifest.size, files: manifest.files.map(({ path }) => path), install }
})

Package.after((context) => {
  if (context.packed !== undefined) rmSync(resolve(context.packed.install, '..'), { recursive: true, force: true })
})

const packedOf = (context: { packed?: Packed }): Packed => {
  if (context.packed === undefined) throw new Error('the package was not packed and installed')
  return context.packed
}

Package('the packed tarball holds the compiled service and no sources or tests', (context) => {
  const { files, size } = packedOf(context)
  for (const file of [
    'package.json',
    'lib/src/main/cli.js',
    'lib/src/main/test-target/start-pet-store.js',
    'lib/src/main/test-target/start-pet-store.d.ts',
    'docs/openapi.yaml',
  ]) {
    assert.ok(files.includes(file), file)
  }
  // What the service serves from beside its code (the inspector page), wherever it is kept.
  for (const asset of filesUnder(join(ROOT, 'adapters')).filter((file) => !file.endsWith('.ts'))) {
    assert.ok(files.includes(`adapters/${asset}`), asset)
  }
  assert.equal(
    files.filter((file) => /^(src|test|scripts|dist)\/|(?<!\.d)\.ts$|\.map$|^tsconfig/.test(file)),
    [],
  )
  console.log(`  packed: ${files.length} files, ${(size / 1000).toFixed(0)} kB`)
})

Package('installed from the tarball, it brings its runtime dependencies only', (context) => {
  const { install } = packedOf(context)
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    readonly dependencies: Record<string, string>
    readonly devDependencies: Record<string, string>
  }
  const installed = (name: string): boolean =>
    statSync(join(install, 'node_modules', name, 'package.json'), { throwIfNoEntry: false }) !== undefined
  assert.equal(
    Object.keys(manifest.dependencies).filter((name) => !installed(name)),
    [],
  )
  const modules = join(install, 'node_modules')
  const files = filesUnder(modules)
  // A tool of the project's own (the compiler, the test runner...) is there only when a runtime dependency needs it.
  const needed = new Set(
    files
      .filter((file) => file.endsWith('package.json'))
      .flatMap((file) =>
        Object.keys((JSON.parse(readFileSync(join(modules, file), 'utf8')) as { dependencies?: object }).dependencies ?? {}),
      ),
  )
  assert.equal(
    Object.keys(manifest.devDependencies).filter((name) => installed(name) && !needed.has(name)),
    [],
  )
  const bytes = files.reduce((sum, file) => sum + statSync(join(modules, file)).size, 0)
  console.log(`  installed: node_modules holds ${megabytes(bytes)} of files`)
})

Package('installed from the tarball, petstore-service --help lists every setting the service reads', async (context) => {
  const { install } = packedOf(context)
  const help = await finished(join(install, 'node_modules/.bin/petstore-service'), ['--help'], install)
  assert.is(help.code, 0)
  for (const name of variablesReadConfigReads()) assert.match(help.stdout, new RegExp(`^  ${name} `, 'm'), name)
  // The guide it points to is in the package.
  const guide = /\(what each takes, and its default: (.+)\):$/m.exec(help.stdout)?.[1] ?? ''
  assert.is(guide, join(install, 'node_modules/petstore-service/docs/guides/settings.md'))
  assert.ok(statSync(guide).isFile())
})

Package(
  'installed from the tarball, npx petstore-service answers at once, with its contract, reference page and inspector page',
  async (context) => {
    const { install } = packedOf(context)
    const cli = process.env.npm_execpath
    const args = ['exec', '--', 'petstore-service', '--port', '0', '--test-target', 'on']
    const spawned = performance.now()
    const service = started(cli === undefined ? 'npm' : process.execPath, cli === undefined ? args : [cli, ...args], install, {
      PETSTORE_API_KEYS: TEST_KEY,
    })
    try {
      const url = await waitForUrl(service)
      assert.is((await send(url, 'GET', '/healthz', { key: false })).status, 200)
      console.log(`  npx petstore-service: first answer ${Math.round(performance.now() - spawned)} ms after the spawn`)
      assert.is((await send(url, 'GET', '/', { key: false })).status, 200)
      const contract = (await send(url, 'GET', '/v1/openapi.json', { key: false })).body as { paths: Record<string, unknown> }
      assert.ok('/sandbox/requests' in contract.paths)
      const page = await fetch(`${url}/docs`)
      assert.is(page.status, 200)
      const assets = [...(await page.text()).matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1])
      assert.ok(assets.length > 0)
      const inspector = await fetch(`${url}/sandbox`)
      assert.is(inspector.status, 200)
      assets.push(...[...(await inspector.text()).matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1]))
      for (const asset of assets) assert.is((await fetch(new URL(asset ?? '', url))).status, 200, asset)
      assert.is((await send(url, 'GET', '/v1/pets', { headers: { prefer: 'fault=503' } })).status, 503)
    } finally {
      // Ctrl-C signals the whole group: npm, and the service it runs.
      process.kill(-(service.child.pid ?? 0), 'SIGTERM')
      await service.exited
    }
  },
)

Package(
  'installed from the tarball, npx petstore-service --stop-on-stdin-close announces its URL and key, and stops with npm once its stdin closes',
  async (context) => {
    const { install } = packedOf(context)
    const cli = process.env.npm_execpath
    const args = ['exec', '--', 'petstore-service', '--port', '0', '--stop-on-stdin-close']
    // No key configured, whatever the tests' environment holds: the generated one is announced.
    const env = { PETSTORE_API_KEYS: '' }
    const service = started(cli === undefined ? 'npm' : process.execPath, cli === undefined ? args : [cli, ...args], install, env, 'pipe')
    const group = service.child.pid ?? 0
    try {
      const { url, key = '' } = await service.announced()
      assert.is((await send(url, 'GET', '/v1/pets', { key })).status, 200)
      service.child.stdin?.end()
      assert.is(await service.exited, 0)
      assert.match(service.stdout(), '"stdin":"closed"')
      // npm has ended, and so has every process of its group: the service is not left running.
      assert.throws(
        () => process.kill(-group, 0),
        (error: NodeJS.ErrnoException) => error.code === 'ESRCH',
      )
    } finally {
      try {
        process.kill(-group, 'SIGKILL')
      } catch {
        // Every process of the group has ended, as it should.
      }
    }
  },
)

Package('installed from the tarball, startPetStore is imported from petstore-service/testing, with its types', async (context) => {
  const { install } = packedOf(context)
  writeFileSync(
    join(install, 'suite.mts'),
    [
      "import { startPetStore, type PetStore } from 'petstore-service/testing'",
      "const petStore: PetStore = await startPetStore({ seed: 'demo' })",
      'const answer = await fetch(`${petStore.url}/v1/pets/6`, { headers: { authorization: `Bearer ${petStore.key}` } })',
      'const entries = await petStore.journal()',
      'await petStore.close()',
      'console.log(JSON.stringify({ status: answer.status, journal: entries.length }))',
      '',
    ].join('\n'),
  )
  const typescript = join(ROOT, 'node_modules/typescript/bin/tsc')
  const options = ['--strict', '--module', 'nodenext', '--target', 'es2022', '--skipLibCheck', '--outDir', 'out']
  const compiled = await finished(
    process.execPath,
    [typescript, ...options, '--typeRoots', join(ROOT, 'node_modules/@types'), '--types', 'node', 'suite.mts'],
    install,
  )
  assert.is(compiled.code, 0, compiled.stdout)
  const suiteRun = succeeded('the compiled suite', await finished(process.execPath, ['out/suite.mjs'], install))
  assert.equal(JSON.parse(suiteRun.stdout), { status: 200, journal: 1 })
})

Package.run()
