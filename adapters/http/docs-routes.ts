import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type Router from '@koa/router'
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js'
import { sendFailure } from './error-response.js'
import { routeNotFound } from './http-failures.js'

export const OPENAPI_PATH = '/v1/openapi.json'

/** Only these files of swagger-ui-dist are served; nothing comes from a CDN. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
}

/** Scripts must be files of our own origin: the page's CSP forbids inline script. */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
})
`

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Pet Store API reference</title>
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`

/** Own origin only; data: images are the icons inside swagger-ui.css. */
export const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

/** The published contract (no authentication: it reveals nothing secret) and its reference page. */
export const registerDocsRoutes = (router: Router, openApiDocument: unknown): void => {
  const documentJson = JSON.stringify(openApiDocument)
  const assetDirectory = getAbsoluteFSPath()
  const assetCache = new Map<string, Buffer>()
  const assetOf = (name: string): Buffer => {
    const cached = assetCache.get(name) ?? readFileSync(join(assetDirectory, name))
    assetCache.set(name, cached)
    return cached
  }

  router.get(OPENAPI_PATH, (ctx) => {
    ctx.type = 'application/json'
    ctx.body = documentJson
  })

  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_CSP)
    ctx.type = 'text/html; charset=utf-8'
    ctx.body = PAGE
  })

  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8'
    ctx.body = INIT_SCRIPT
  })

  router.get('/docs/:asset', (ctx) => {
    const name = ctx.params.asset ?? ''
    // Own keys only: `constructor` or `__proto__` must not look like an asset.
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined
    if (type === undefined) return sendFailure(ctx, routeNotFound(ctx.method, ctx.path))
    ctx.set('Cache-Control', 'public, max-age=3600')
    ctx.type = type
    ctx.body = assetOf(name)
  })
}
