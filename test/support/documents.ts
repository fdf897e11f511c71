import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

export interface Document {
  /** From the repository's root, such as `docs/guides/paging.md`. */
  readonly path: string
  readonly text: string
}

/** Every document a reader may take a fact or an example from; the changelog is history, not a home. */
export const readDocuments = (): ReadonlyArray<Document> => {
  const walk = (directory: string): string[] =>
    readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(directory, entry.name)) : /\.(md|yaml)$/.test(entry.name) ? [join(directory, entry.name)] : [],
    )
  return [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...walk(join(ROOT, 'docs'))].map((file) => ({
    path: relative(ROOT, file),
    text: readFileSync(file, 'utf8'),
  }))
}
