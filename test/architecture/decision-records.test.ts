import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'

const ADR = resolve(__dirname, '../../../docs/adr')
/** About twenty real choices, with room for a few more: the rest of what a record once held lives in the guides and the contract. */
const MAX_RECORDS = 24

const records = (): ReadonlyArray<string> => readdirSync(ADR).filter((name) => /^\d{4}-.+\.md$/.test(name))

const Records = suite('Decision records hold decisions')

Records(`there are at most ${MAX_RECORDS}, each with the alternatives it rejected, its reason and its cost`, () => {
  const names = records()
  assert.ok(names.length > 0 && names.length <= MAX_RECORDS, `${names.length} records`)
  for (const name of names) {
    const text = readFileSync(join(ADR, name), 'utf8')
    assert.match(text, /^The alternatives?\b/m, `${name} names no alternative it rejected`)
    assert.match(text, /^_Why:_(?: |$)/m, `${name} has no _Why:_`)
    assert.match(text, /^_Cost:_(?: |$)/m, `${name} has no _Cost:_`)
  }
})

Records('the index lists each record once, with one line saying what it decides', () => {
  const index = readFileSync(join(ADR, 'README.md'), 'utf8')
  for (const name of records()) {
    const lines = index.split('\n').filter((line) => line.includes(`](${name})`))
    assert.is(lines.length, 1, name)
    assert.match(lines[0] ?? '', new RegExp(`^- \\[\\d{4} .+\\]\\(${name.replace(/\./g, '\\.')}\\): \\S`), name)
  }
})

Records.run()
