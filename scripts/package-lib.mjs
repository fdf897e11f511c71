// `npm run build:package` (npm's `prepare`: `npm pack` and `npm publish` run it), after `tsc -b`
// brought dist/ up to date: lib/, the package's code, is the build the tests run against, not a
// second compilation. Copied: the JavaScript and declarations of each source under src/ and
// adapters/, without source maps (the sources are not shipped) and without whatever a deleted
// source left behind in dist/.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const LIB = join(ROOT, 'lib')
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/

rmSync(LIB, { recursive: true, force: true })
for (const directory of ['src', 'adapters']) {
  const sources = readdirSync(join(ROOT, directory), { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.d.ts'),
  )
  for (const source of sources) {
    const stem = join(directory, source.slice(0, -'.ts'.length))
    mkdirSync(dirname(join(LIB, stem)), { recursive: true })
    writeFileSync(join(LIB, `${stem}.js`), readFileSync(join(ROOT, 'dist', `${stem}.js`), 'utf8').replace(SOURCE_MAP_COMMENT, '\n'))
    writeFileSync(join(LIB, `${stem}.d.ts`), readFileSync(join(ROOT, 'dist', `${stem}.d.ts`)))
  }
}
