import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ESLint as ESLintClass, Linter } from 'eslint'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

interface Modules {
  readonly ESLint: typeof ESLintClass
  readonly boundaries: Linter.Config[]
}

/** The same rules `npm run lint` applies (eslint.boundaries.mjs), loaded as ES modules. */
const load = async (): Promise<Modules> => {
  const eslint = (await import('eslint')) as { ESLint: typeof ESLintClass }
  const boundaries = (await import(pathToFileURL(resolve(ROOT, 'eslint.boundaries.mjs')).href)) as { default: Linter.Config[] }
  return { ESLint: eslint.ESLint, boundaries: boundaries.default }
}

/** Lints `code` as if it were the file at `filePath`, with the boundary rules only. */
const violations = async (code: string, filePath: string): Promise<string[]> => {
  const { ESLint, boundaries } = await load()
  const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: boundaries })
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, filePath) })
  return (result?.messages ?? []).map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`)
}

const Boundaries = suite('import boundaries')

Boundaries('catches a forbidden import planted in src/domain', async () => {
  const planted = readFileSync(resolve(ROOT, 'test/fixtures/domain-imports-koa.ts.txt'), 'utf8')
  const found = await violations(planted, 'src/domain/planted.ts')
  assert.is(found.length, 1)
  assert.match(found[0] ?? '', /^no-restricted-imports: .*src\/domain is pure/)
})

Boundaries('forbids the domain adapters, mongodb, node I/O and the composition root', async () => {
  for (const source of [
    '../../adapters/memory/memory-pet-repository.js',
    'mongodb',
    'node:fs',
    'fs',
    'node:http',
    '@koa/router',
    'pino',
    '../main/config.js',
    '../main/main.js',
    '../store/store.js',
    '../package-root.js',
  ]) {
    const found = await violations(`import '${source}'\n`, 'src/domain/planted.ts')
    assert.is(found.length, 1, source)
  }
})

Boundaries('allows the domain fp-ts, io-ts and its own modules', async () => {
  const code =
    "import * as t from 'io-ts'\nimport * as TE from 'fp-ts/TaskEither'\nimport { pipe } from 'fp-ts/function'\nimport { Pet } from './pet.js'\n"
  assert.equal(await violations(code, 'src/domain/planted.ts'), [])
})

Boundaries("forbids an adapter to import another adapter or the composition root, and lets it find the package's files", async () => {
  for (const source of [
    '../memory/memory-pet-repository.js',
    '../../src/main/main.js',
    '../../src/main/config.js',
    '../../src/domain/../main/config.js',
  ]) {
    assert.is((await violations(`import '${source}'\n`, 'adapters/http/planted.ts')).length, 1, source)
  }
  const allowed =
    "import { Pet } from '../../src/domain/pet.js'\nimport type { Store } from '../../src/store/store.js'\nimport Koa from 'koa'\n" +
    "import { PACKAGE_ROOT } from '../../src/package-root.js'\n"
  assert.equal(await violations(allowed, 'adapters/http/planted.ts'), [])
})

Boundaries(
  "lets the test target build on the HTTP adapter and find the package's files, and never the HTTP adapter import the test target",
  async () => {
    const allowed = "import { sendFailure } from '../http/error-response.js'\nimport { PACKAGE_ROOT } from '../../src/package-root.js'\n"
    assert.equal(await violations(allowed, 'adapters/test-target/planted.ts'), [])
    for (const source of ['../memory/memory-store.js', '../http/../memory/memory-store.js', '../../src/main/main.js']) {
      assert.is((await violations(`import '${source}'\n`, 'adapters/test-target/planted.ts')).length, 1, source)
    }
    const imported = await violations("import { testTarget } from '../test-target/test-target.js'\n", 'adapters/http/planted.ts')
    assert.ok(
      imported.some((message) => message.startsWith('no-restricted-imports: ')),
      imported.join('; '),
    )
  },
)

Boundaries(
  'keeps every name of the test target out of the code it extends: adapters/http, adapters/auth, adapters/memory, src/domain',
  async () => {
    const planted = [
      'export const sandboxOf = (scope: string): string => scope\n',
      "export const code = 'sandbox_full'\n",
      'export interface FaultState {\n  readonly forced: boolean\n}\n',
      'export const count = (entries: number): string => `${entries} journal entries`\n',
      "export const INSPECTOR = '/inspector'\n",
      'export const testTarget = true\n',
    ]
    for (const folder of ['adapters/http', 'adapters/auth', 'adapters/memory', 'src/domain']) {
      for (const code of planted) {
        const found = await violations(code, `${folder}/planted.ts`)
        assert.ok(
          found.some((message) => /^no-restricted-syntax: .*name none of its concepts/.test(message)),
          `${folder}: ${code} ${found.join('; ')}`,
        )
      }
    }
    // A default is no fault, and a comment may say what uses the code.
    assert.equal(
      await violations("// An extension, such as a sandbox, may read it.\nexport const DEFAULTS = 'default'\n", 'adapters/http/planted.ts'),
      [],
    )
    // The test target names itself.
    assert.equal(await violations("export const sandboxOf = 'sandbox'\n", 'adapters/test-target/planted.ts'), [])
  },
)

Boundaries('lets src/store import the domain and its own modules only', async () => {
  assert.equal(
    await violations("import type { Pet } from '../domain/pet.js'\nimport type { Store } from './store.js'\n", 'src/store/planted.ts'),
    [],
  )
  for (const source of ['../../adapters/memory/memory-store.js', '../main/config.js', 'koa', 'node:fs', '../package-root.js']) {
    assert.is((await violations(`import '${source}'\n`, 'src/store/planted.ts')).length, 1, source)
  }
})

Boundaries('finds no violation in the real src/domain and adapters', async () => {
  const { ESLint, boundaries } = await load()
  const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: true, overrideConfig: boundaries })
  const results = await eslint.lintFiles(['src/domain/**/*.ts', 'src/store/**/*.ts', 'adapters/**/*.ts'])
  assert.ok(results.length >= 10, `linted ${results.length} files`)
  assert.equal(
    results.flatMap((result) => result.messages.map((message) => `${result.filePath}: ${message.message}`)),
    [],
  )
})

Boundaries.run()
