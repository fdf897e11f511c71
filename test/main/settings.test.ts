import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SETTING_GROUPS, SETTINGS } from '../../src/main/settings.js'
import { variablesReadConfigReads } from '../support/settings-read.js'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

const Settings = suite('The settings the service reads, the list --help shows, and the settings guide')

Settings('the list --help shows names every variable readConfig reads, and no other', () => {
  assert.equal(SETTINGS.map(({ name }) => name).sort(), [...variablesReadConfigReads()].sort())
})

Settings('the settings guide describes each setting of that list, in the same groups and order, each under its own heading', () => {
  const guide = readFileSync(resolve(ROOT, 'docs/guides/settings.md'), 'utf8')
  // Each `##` section of the guide with settings under it, and the `###` headings of those settings.
  const groups = guide
    .split(/^## /m)
    .slice(1)
    .map((section) => ({
      title: section.slice(0, section.indexOf('\n')),
      settings: [...section.matchAll(/^### `([A-Z_]+)`$/gm)].map((match) => match[1]),
    }))
    .filter(({ settings }) => settings.length > 0)
  assert.equal(
    groups,
    SETTING_GROUPS.map(({ title, settings }) => ({ title, settings: settings.map(({ name }) => name) })),
  )
})

Settings.run()
