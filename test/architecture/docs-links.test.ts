import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readDocuments } from '../support/documents.js'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

const REMARK = resolve(ROOT, 'node_modules/.bin/remark')

/** What `npm run docs:check` does, on the given files. */
const checkLinks = (...files: string[]) =>
  spawnSync(REMARK, ['--quiet', '--frail', '--no-stdout', '--no-color', ...files], { cwd: ROOT, encoding: 'utf8' })

const Links = suite('npm run docs:check (remark-validate-links)')

Links('fails on a link to a heading or a file that does not exist', () => {
  const result = checkLinks('test/fixtures/dead-anchor.md')
  assert.is(result.status, 1)
  assert.match(result.stderr, 'Cannot find heading for `#no-such-heading`')
  assert.match(result.stderr, 'Cannot find file `no-such-page.md`')
})

Links.run()

/** A link followed by the same link, text and target, with only `and`, `or` or punctuation between. */
const REPEATED_LINK = /\[([^\]]+)\]\(([^)\s]+)\)[\s,;]*(?:and|or)?\s*\[\1\]\(\2\)/

const Repeats = suite('The links of README.md, CONTRIBUTING.md and docs/')

Repeats('never give the same link twice in a row', () => {
  const repeated = readDocuments().flatMap(({ path, text }) => {
    const match = REPEATED_LINK.exec(text)
    return match === null ? [] : [`${path}: ${match[0]}`]
  })
  assert.equal(repeated, [])
})

Repeats.run()
