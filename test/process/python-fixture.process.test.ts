import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readDocuments } from '../support/documents.js'
import { withPython3 } from '../support/python3.js'
import { MAIN, watched } from '../support/spawn-service.js'

const GUIDE = 'docs/guides/client-developers.md'
const PYTHON_BLOCK = /^```python\n([\s\S]*?)^```$/gm

const NAME = 'The Python fixture of the guide for client developers'
const PythonFixture = suite(NAME)

PythonFixture('the docs hold one Python block, in the guide for client developers: the one run below', () => {
  const blocks = readDocuments().flatMap(({ path, text }) => [...text.matchAll(PYTHON_BLOCK)].map(() => path))
  assert.equal(blocks, [GUIDE])
})

withPython3(
  NAME,
  (python3) => {
    PythonFixture(
      'run by python3, it starts the command, reads its announcement, asks for a pet with its URL and key, and stops it by closing its stdin',
      async () => {
        const guide = readDocuments().find(({ path }) => path === GUIDE)?.text ?? ''
        const [, code = ''] = [...guide.matchAll(PYTHON_BLOCK)][0] ?? []
        const folder = mkdtempSync(join(tmpdir(), 'petstore-python-'))
        try {
          const script = join(folder, 'petstore_fixture.py')
          writeFileSync(script, code)
          // The built command as the package's bin runs it, instead of npx; its coverage is measured.
          const run = watched(spawn(python3, [script, process.execPath, MAIN], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] }))
          // The fixture raises, and python3 exits 1, unless the service stopped with status 0.
          assert.is(await run.exited, 0, run.stderr())
          assert.is(run.stdout(), 'Zoë\n')
          assert.is(run.stderr(), '')
        } finally {
          rmSync(folder, { recursive: true, force: true })
        }
      },
    )
  },
  (message) => {
    PythonFixture('python3 is available (required when CI=true)', () => {
      assert.unreachable(message)
    })
  },
)

PythonFixture.run()
