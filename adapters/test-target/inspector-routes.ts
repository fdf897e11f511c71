import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type Router from '@koa/router'
import { DOCS_CSP } from '../http/docs-routes.js'
import { PACKAGE_ROOT } from '../../src/package-root.js'

/** The page's files, in the source tree (never compiled, so never under dist/). */
const PAGE_DIRECTORY = resolve(PACKAGE_ROOT, 'adapters/test-target/sandbox-page')

export const INSPECTOR_PATH = '/sandbox'

const FILES: ReadonlyArray<readonly [path: string, file: string, type: string]> = [
  [INSPECTOR_PATH, 'index.html', 'text/html; charset=utf-8'],
  [`${INSPECTOR_PATH}/inspector.js`, 'inspector.js', 'text/javascript; charset=utf-8'],
  [`${INSPECTOR_PATH}/inspector.css`, 'inspector.css', 'text/css; charset=utf-8'],
]

/**
 * The sandbox inspector (PETSTORE_TEST_TARGET=on): a page that shows a key's request journal as
 * it grows, filtered as the user chooses, and sets its fault script. It needs no key to load (the
 * key is typed into the page), comes with everything it uses (no CDN), and runs under the reference
 * page's CSP: scripts and styles from files of this origin only.
 */
export const registerInspectorRoutes = (router: Router): void => {
  for (const [path, file, type] of FILES) {
    const content = readFileSync(resolve(PAGE_DIRECTORY, file))
    router.get(path, (ctx) => {
      ctx.set('Content-Security-Policy', DOCS_CSP)
      ctx.type = type
      ctx.body = content
    })
  }
}
