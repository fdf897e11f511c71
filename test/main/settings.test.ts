import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SETTINGS } from '../../src/main/settings.js'
import { variablesReadConfigReads } from '../support/settings-read.js'

const ROOT = resolve(__dirname, '../../..')

const Settings = suite('The settings the service reads, the list --help shows, and the settings guide')

Settings('the list --help shows names every variable readConfig reads, and no other', () => {
  assert.equal(SETTINGS.map(({ name }) => name).sort(), [...variablesReadConfigReads()].sort())
})

Settings('the settings guide describes each setting of that list, in the same order, each under its own heading', () => {
  const guide = readFileSync(resolve(ROOT, 'docs/guides/settings.md'), 'utf8')
  const headings = [...guide.matchAll(/^### `([A-Z_]+)`$/gm)].map((match) => match[1])
  assert.equal(
    headings,
    SETTINGS.map(({ name }) => name),
  )
})

Settings.run()
