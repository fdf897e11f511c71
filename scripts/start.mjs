// `npm start`: compiles only when a source is newer than the last build (tsc -b then compiles just
// what changed), then runs the service in this process. A restart with nothing changed skips
// loading the compiler, which takes longer than the check it would make.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const BUILD_INFO = join(ROOT, 'dist/.tsbuildinfo')
const SOURCE_DIRECTORIES = ['src', 'adapters', 'scripts', 'test']
const SETTINGS = ['tsconfig.json', 'package-lock.json']

/** The latest modification time of the TypeScript files under `directory`. */
const newestSource = (directory) =>
  readdirSync(directory, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return Math.max(newest, newestSource(path))
    return entry.name.endsWith('.ts') ? Math.max(newest, statSync(path).mtimeMs) : newest
  }, 0)

const built = statSync(BUILD_INFO, { throwIfNoEntry: false })?.mtimeMs ?? 0
const changed = Math.max(
  ...SOURCE_DIRECTORIES.map((directory) => newestSource(join(ROOT, directory))),
  ...SETTINGS.map((file) => statSync(join(ROOT, file)).mtimeMs),
)
if (changed > built) {
  // Said on stderr, like tsc's report: stdout is the service's JSON log stream. A first build takes
  // up to a minute, which must not look like a hang.
  process.stderr.write('npm start: compiling the TypeScript sources into dist/ (the first time takes up to a minute)...\n')
  const started = performance.now()
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const compiled = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.json'], { cwd: ROOT, stdio: ['ignore', 2, 2] })
  if (compiled.status !== 0) {
    process.stderr.write('npm start: the compilation failed (above); the service was not started\n')
    process.exit(compiled.status ?? 1)
  }
  process.stderr.write(`npm start: compiled in ${((performance.now() - started) / 1000).toFixed(1)} s; starting the service\n`)
}
await import(join(ROOT, 'dist/src/main/cli.js'))
