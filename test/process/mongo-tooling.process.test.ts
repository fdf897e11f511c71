import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { PACKAGE_ROOT as ROOT } from '../../adapters/http/package-root.js'

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

/** Runs `node args` in the project with `env` (and nothing else of this process's environment but PATH). */
const runNode = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<Finished> =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
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
 * downloadable. Besides the download folder it looks in `~/.cache/mongodb-binaries` and in
 * `node_modules/.cache/mongodb-memory-server` (DryMongoBinary.generatePaths), where an `npm ci` that
 * ran its postinstall caches one: a home of its own empties the first, and a version no release has
 * (binary names carry the version) misses every cache.
 */
const noMongod = (downloadDir: string): Record<string, string> => ({
  HOME: downloadDir,
  MONGOMS_DOWNLOAD_DIR: downloadDir,
  MONGOMS_VERSION: '8.2.99',
  // A mirror that refuses at once: the download fails as it does offline.
  MONGOMS_DOWNLOAD_MIRROR: 'http://127.0.0.1:1',
})

interface Context {
  downloadDir: string
}

const Tooling = suite<Context>('MongoDB tooling without a mongod', { downloadDir: '' })

Tooling.before((context) => {
  context.downloadDir = mkdtempSync(join(tmpdir(), 'petstore-no-mongod-'))
})
Tooling.after((context) => {
  rmSync(context.downloadDir, { recursive: true, force: true })
})

Tooling('npm run start:mongo-memory says why in at most two lines and exits 1, without a stack trace', async (context) => {
  for (const env of [noMongod(context.downloadDir), { MONGOMS_SYSTEM_BINARY: join(context.downloadDir, 'no-such-mongod') }]) {
    const finished = await runNode(['dist/scripts/start-mongo-memory.js'], env)
    assert.not.ok(finished.overran, `still running after ${HANG_GUARD_MS} ms: ${finished.stderr}`)
    assert.is(finished.code, 1)
    const lines = finished.stderr.split('\n').filter((line) => line.trim() !== '')
    assert.ok(lines.length >= 1 && lines.length <= 2, finished.stderr)
    assert.match(lines[0] ?? '', /^petstore: cannot start a throwaway mongod: /)
    assert.match(finished.stderr, 'MONGOMS_SYSTEM_BINARY')
    assert.not.match(finished.stderr, /\n\s+at /)
    assert.is(finished.stdout, '')
  }
})

Tooling('the MongoDB suites skip in one line each without a mongod, and fail instead with PETSTORE_REQUIRE_MONGODB=1', async (context) => {
  const uvu = ['node_modules/uvu/bin.js', 'dist/test', MONGO_SUITES]
  const skipped = await runNode(uvu, noMongod(context.downloadDir))
  assert.is(skipped.code, 0, skipped.stdout)
  assert.is(skipped.stdout.match(/^MongoDB [^\n]*: skipped, /gm)?.length, 4, skipped.stdout)
  const required = await runNode(uvu, { ...noMongod(context.downloadDir), PETSTORE_REQUIRE_MONGODB: '1' })
  assert.is(required.code, 1, required.stdout)
  assert.is(required.stdout.match(/fails: PETSTORE_REQUIRE_MONGODB=1 and no mongod binary could be had/g)?.length, 4, required.stdout)
})

Tooling.run()
