import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import ts from 'typescript'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

/** The service's own modules: every TypeScript file under these folders. */
const FOLDERS = ['src', 'adapters', 'scripts']

const modulesIn = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return modulesIn(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })

/** The modules `path` imports or re-exports, type-only ones too (a circle of types is still a circle to read). */
const importsOf = (path: string, modules: ReadonlySet<string>): string[] =>
  ts
    .preProcessFile(readFileSync(path, 'utf8'), true, false)
    .importedFiles.map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(path), name.replace(/\.js$/, '.ts')))
    .filter((target) => modules.has(target))

/** The groups of modules that import each other in a circle (Tarjan's strongly connected components of more than one module, or one importing itself). */
const circles = (graph: ReadonlyMap<string, ReadonlyArray<string>>): string[][] => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (module: string): void => {
    index.set(module, index.size)
    low.set(module, index.get(module) ?? 0)
    stack.push(module)
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(module, Math.min(low.get(module) ?? 0, low.get(target) ?? 0))
      } else if (stack.includes(target)) low.set(module, Math.min(low.get(module) ?? 0, index.get(target) ?? 0))
    }
    if (low.get(module) !== index.get(module)) return
    const group: string[] = []
    for (let member = stack.pop(); member !== undefined; member = member === module ? undefined : stack.pop()) group.push(member)
    if (group.length > 1 || (graph.get(module) ?? []).includes(module)) found.push(group.sort())
  }
  for (const module of graph.keys()) if (!index.has(module)) visit(module)
  return found
}

const Circles = suite('The modules of the service')

Circles('import each other in no circle: each can be read after what it imports', () => {
  const modules = new Set(FOLDERS.flatMap((folder) => modulesIn(resolve(ROOT, folder))))
  assert.ok(modules.size > 50)
  const graph = new Map([...modules].map((module) => [module, importsOf(module, modules)]))
  assert.equal(
    circles(graph).map((group) => group.map((module) => relative(ROOT, module))),
    [],
  )
})

Circles.run()
