import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * The nearest folder at or above `from` that holds a package.json. Modules that read the package's
 * own files (the contract, its overlay, the sandbox page, the settings guide) run from their
 * TypeScript source (`npm run test:fast`), from dist/ after a build and from lib/ in the installed
 * package: a fixed count of `..` fits only one of them, the package's root fits all three. The
 * adapters, the composition root, the scripts and the tests may import it; the domain and
 * src/store, which do no I/O, may not (eslint.boundaries.mjs).
 */
const packageRootOf = (from: string): string => {
  if (existsSync(join(from, 'package.json'))) return from
  const parent = dirname(from)
  if (parent === from) throw new Error('no package.json above the module')
  return packageRootOf(parent)
}

/** The root of this package. */
export const PACKAGE_ROOT = packageRootOf(__dirname)
