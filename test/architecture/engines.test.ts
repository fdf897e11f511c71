import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { minVersion, satisfies } from 'semver'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

const read = (file: string): unknown => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'))

interface Manifest {
  readonly engines: { readonly node: string }
}
interface Lock {
  readonly packages: Record<string, { readonly engines?: { readonly node?: string } | ReadonlyArray<string> }>
}

const Engines = suite('Node engines')

Engines('every locked package accepts the oldest Node the project states, so npm install warns of no engine', () => {
  const oldest = minVersion((read('package.json') as Manifest).engines.node)?.version ?? 'none'
  assert.is(oldest, '20.19.0')
  const refusing = Object.entries((read('package-lock.json') as Lock).packages).flatMap(([path, entry]) => {
    const range = Array.isArray(entry.engines) ? undefined : (entry.engines as { node?: string } | undefined)?.node
    return range === undefined || satisfies(oldest, range) ? [] : [`${path} (node ${range})`]
  })
  assert.equal(refusing, [])
})

Engines.run()
