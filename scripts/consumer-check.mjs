// `npm run consumer-check`: the package as a TypeScript suite gets it. Packs it (`npm pack`, which
// builds lib/), installs the tarball in a fresh temporary folder with `typescript` and `@types/node`
// and nothing else (no `@types/koa`), and compiles there a suite that uses startPetStore, connect and
// each type of `petstore-service/testing`, with `strict` and `skipLibCheck: false`: every published
// declaration it reaches must then compile on its own. Needs the npm registry; prints its verdict,
// PASS or FAIL with the compiler's errors, last, and exits 1 on FAIL.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'
// The versions the project builds with; a consumer's own would do as well.
const TYPESCRIPT = 'typescript@5.9.3'
const NODE_TYPES = '@types/node@20.19.43'

/** A suite's use of every export of `petstore-service/testing`; each @ts-expect-error proves a type is not `any`. */
const CONSUMER = `import {
  connect,
  PetStoreError,
  startPetStore,
  type ConnectOptions,
  type FaultRule,
  type JournalEntry,
  type JournalFilters,
  type JournalState,
  type JsonValue,
  type MadeSandbox,
  type PetStore,
  type PetStoreOptions,
  type Sandbox,
  type SandboxClock,
  type SandboxReport,
} from 'petstore-service/testing'

const options: PetStoreOptions = { seed: 'demo' }
const tags: JsonValue = ['a', 1, null]
const body = { name: 'Rex', tags, owner: { id: 7 } }
const rules: FaultRule[] = [
  { operation: 'createPet', when: { body }, fault: '503', retryAfter: 0, times: 1 },
  { operation: 'listPets', answer: { status: 502, headers: { 'Retry-After': null }, text: '<h1>Bad Gateway</h1>' } },
  { operation: 'getPet', when: { params: { petId: '7' } }, answer: { status: 200, body: { id: 7 } }, afterOperation: false },
]
// @ts-expect-error: an operation the contract does not have
const unknownOperation: FaultRule = { operation: 'deletePet', fault: '503' }
const filters: JournalFilters = { method: 'POST', operation: 'createPet', state: 'answered', fault: 'answer', header: ['idempotency-key'] }
// @ts-expect-error: a method is one of the contract's, in capitals
const lowerCase: JournalFilters = { method: 'post' }

const drive = async (sandbox: Sandbox): Promise<void> => {
  const script: ReadonlyArray<FaultRule> = await sandbox.setFaults(rules)
  await sandbox.faults()
  await sandbox.clearFaults()
  const entries: ReadonlyArray<JournalEntry> = await sandbox.journal({ ...filters, limit: 10 })
  const state: JournalState | undefined = entries[0]?.state
  const count: number = await sandbox.count(filters)
  await sandbox.clearJournal()
  const report: SandboxReport = await sandbox.report()
  const clock: SandboxClock = await sandbox.clock()
  const moved: SandboxClock = await sandbox.advanceClock(60_000)
  await sandbox.reset()
  await using worker = await sandbox.newSandbox()
  const made: MadeSandbox = worker
  await made.end()
  console.log(script.length, state, count, report.findings.length, clock.now, moved.advancedMs, made.url, made.key)
}

export const suite = async (where: ConnectOptions): Promise<void> => {
  await using petStore: PetStore = await startPetStore(options)
  await drive(petStore)
  await petStore.close()
  try {
    await drive(await connect(where))
  } catch (error: unknown) {
    if (error instanceof PetStoreError) console.log(error.status, error.code, error.message)
  }
  // @ts-expect-error: only a made sandbox ends
  await petStore.end()
  console.log(unknownOperation, lowerCase)
}
`

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
  },
  files: ['consumer.ts'],
}

const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

const folder = mkdtempSync(join(tmpdir(), 'petstore-consumer-'))
let verdict = 'FAIL'
try {
  console.log(`consumer check: packing ${ROOT}`)
  const [packed] = JSON.parse(run(NPM, ['pack', '--json', '--pack-destination', folder], ROOT))
  console.log(`consumer check: ${packed.filename} (${packed.entryCount} files, ${packed.size} bytes), installed in ${folder}`)
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  run(NPM, ['install', '--no-audit', '--no-fund', '--ignore-scripts', join(folder, packed.filename), TYPESCRIPT, NODE_TYPES], folder)
  const types = run(NPM, ['ls', '--json', '--depth', '0'], folder)
  const strays = Object.keys(JSON.parse(types).dependencies ?? {}).filter((name) => name.startsWith('@types/') && name !== '@types/node')
  if (strays.length > 0) throw new Error(`@types packages besides @types/node were installed: ${strays.join(', ')}`)
  writeFileSync(join(folder, 'consumer.ts'), CONSUMER)
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2))
  try {
    run(process.execPath, [join(folder, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], folder)
    verdict = 'PASS'
  } catch (error) {
    console.log(`${error.stdout ?? ''}${error.stderr ?? ''}`.trim())
  }
} catch (error) {
  console.log(`consumer check: ${error.stderr ?? error.message}`)
} finally {
  rmSync(folder, { recursive: true, force: true })
}
console.log(
  verdict === 'PASS'
    ? 'consumer check: PASS: the packed petstore-service/testing compiles with strict, skipLibCheck false and @types/node alone'
    : 'consumer check: FAIL',
)
process.exitCode = verdict === 'PASS' ? 0 : 1
