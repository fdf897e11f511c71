import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

/**
 * Only a guard against a run that hangs, so that the test fails instead: far beyond how long any of
 * these runs takes, however busy the machine.
 */
const HANG_GUARD_MS = 60_000
/** The MongoDB test files: each needs a mongod, each skips in one line without one. */
const MONGO_SUITES = 'adapters[\\\\/]mongo-(pet-repository|seed|store|replica-set)\\.test\\.js$'

interface Finished {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** Whether it was still running after HANG_GUARD_MS and was stopped. */
  readonly overran: boolean
}

/**
 * Runs `node args` in `cwd` with `env`, and nothing else of this process's environment but PATH (so
 * none of the job's MONGOMS_* settings, nor the INIT_CWD that `npm test` sets).
 */
const runNode = (args: ReadonlyArray<string>, cwd: string, env: Record<string, string>): Promise<Finished> =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let overran = false
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    const stop = setTimeout(() => {
      overran = true
      child.kill('SIGKILL')
    }, HANG_GUARD_MS)
    child.on('close', (code) => {
      clearTimeout(stop)
      done({ code, stdout, stderr, overran })
    })
  })

/**
 * Settings under which mongodb-memory-server can have no mongod, even where one is cached or
 * downloadable, run in `folder` (empty, made for the test). DryMongoBinary.generatePaths looks in
 * four places, each emptied here: MONGOMS_DOWNLOAD_DIR (this folder); `~/.cache/mongodb-binaries`
 * (HOME is this folder); `node_modules/.cache/mongodb-memory-server` found by find-cache-dir from
 * INIT_CWD or the working folder (neither is passed on: the working folder is this one, with no
 * package.json above it, so there is none); and `mongodb-binaries` in the working folder. No
 * MONGOMS_SYSTEM_BINARY, and no package.json above the working folder whose
 * `config.mongodbMemoryServer` could name one (resolveConfig's findPackageJson). Besides, a version
 * no release has (binary names carry the version) misses any cache that slipped through, and a
 * mirror that refuses at once makes the download fail as it does offline.
 */
const noMongod = (folder: string): Record<string, string> => ({
  HOME: folder,
  MONGOMS_DOWNLOAD_DIR: folder,
  MONGOMS_VERSION: '8.2.99',
  MONGOMS_DOWNLOAD_MIRROR: 'http://127.0.0.1:1',
})

interface Context {
  /** Its home, download folder and working folder: empty, and made for it. */
  folder: string
}

const Tooling = suite<Context>('MongoDB tooling without a mongod', { folder: '' })

Tooling.before((context) => {
  context.folder = mkdtempSync(join(tmpdir(), 'petstore-no-mongod-'))
})
Tooling.after((context) => {
  rmSync(context.folder, { recursive: true, force: true })
})

/** What a lookup that no cache served says: it went on to download, from the mirror that refuses. */
const DOWNLOAD_REFUSED = 'Download failed for url "http://127.0.0.1:1/'

Tooling('npm run start:mongo-memory says why in at most two lines and exits 1, without a stack trace', async (context) => {
  const cases = [
    { env: noMongod(context.folder), why: DOWNLOAD_REFUSED },
    { env: { MONGOMS_SYSTEM_BINARY: join(context.folder, 'no-such-mongod') }, why: 'no-such-mongod' },
  ]
  for (const { env, why } of cases) {
    const finished = await runNode([resolve(ROOT, 'dist/scripts/start-mongo-memory.js')], context.folder, env)
    assert.not.ok(finished.overran, `still running after ${HANG_GUARD_MS} ms: ${finished.stderr}`)
    assert.is(finished.code, 1)
    const lines = finished.stderr.split('\n').filter((line) => line.trim() !== '')
    assert.ok(lines.length >= 1 && lines.length <= 2, finished.stderr)
    assert.match(lines[0] ?? '', /^petstore: cannot start a throwaway mongod: /)
    assert.match(lines[0] ?? '', why)
    assert.match(finished.stderr, 'MONGOMS_SYSTEM_BINARY')
    assert.not.match(finished.stderr, /\n\s+at /)
    assert.is(finished.stdout, '')
  }
})

Tooling('the MongoDB suites skip in one line each without a mongod, and fail instead with PETSTORE_REQUIRE_MONGODB=1', async (context) => {
  const uvu = [resolve(ROOT, 'node_modules/uvu/bin.js'), resolve(ROOT, 'dist/test'), MONGO_SUITES]
  const skipped = await runNode(uvu, context.folder, noMongod(context.folder))
  assert.is(skipped.code, 0, skipped.stdout)
  const skips = skipped.stdout.match(/^MongoDB [^\n]*: skipped, [^\n]*/gm) ?? []
  assert.is(skips.length, 4, skipped.stdout)
  for (const skip of skips) assert.match(skip, DOWNLOAD_REFUSED)
  const required = await runNode(uvu, context.folder, { ...noMongod(context.folder), PETSTORE_REQUIRE_MONGODB: '1' })
  assert.is(required.code, 1, required.stdout)
  assert.is(required.stdout.match(/fails: PETSTORE_REQUIRE_MONGODB=1 and no mongod binary could be had/g)?.length, 4, required.stdout)
})

Tooling.run()
