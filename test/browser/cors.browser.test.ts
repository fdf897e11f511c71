import { createServer, type Server } from 'node:http'
import { type Browser, chromium } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SHOWN_WITHIN_MS, withChromium } from '../support/chromium.js'
import { aNewPet } from '../support/pet-builder.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

interface Context {
  api: RunningApi
  page: Server
  pageOrigin: string
  browser: Browser
}

/** A page on another origin whose script calls the API with a bearer key and shows what it read. */
const pageHtml = (apiUrl: string): string => `<!doctype html><html><body><pre id="out">waiting</pre><script>
fetch(${JSON.stringify(`${apiUrl}/v1/pets?limit=1`)}, { headers: { Authorization: 'Bearer ${TEST_KEY}' } })
  .then(async (response) => {
    const pets = await response.json()
    document.getElementById('out').textContent = JSON.stringify({ status: response.status, link: response.headers.get('Link'), pets })
  })
  .catch((error) => { document.getElementById('out').textContent = 'failed: ' + error })
</script></body></html>`

const NAME = 'CORS from a page on another origin, in Chromium'
const CrossOrigin = suite<Context>(NAME, {} as Context)

withChromium(
  NAME,
  (executablePath) => {
    CrossOrigin.before(async (context) => {
      context.page = createServer((_, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(context.api.baseUrl)),
      )
      await new Promise<void>((resolve) => context.page.listen(0, '127.0.0.1', resolve))
      const address = context.page.address()
      context.pageOrigin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
      context.api = await startApi({ corsOrigins: [context.pageOrigin] })
      context.browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] })
    })
    CrossOrigin.after(async (context) => {
      await context.browser.close()
      await context.api.close()
      await new Promise((resolve) => context.page.close(resolve))
    })

    CrossOrigin(
      'a page on another origin reads pets and the Link header with fetch and a bearer key',
      async ({ api, browser, pageOrigin }) => {
        await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Cross' }) })
        await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Origin' }) })
        const page = await browser.newPage()
        await page.goto(pageOrigin)
        await page.locator('#out', { hasNotText: 'waiting' }).waitFor({ timeout: SHOWN_WITHIN_MS })
        const seen = JSON.parse((await page.locator('#out').textContent()) ?? '{}') as {
          status: number
          link: string
          pets: Array<{ name: string }>
        }
        assert.is(seen.status, 200)
        assert.match(seen.link, /^<\/v1\/pets\?limit=1&after=[^>]+>; rel="next"$/)
        assert.equal(
          seen.pets.map((pet) => pet.name),
          ['Cross'],
        )
        await page.close()
      },
    )
  },
  (message) => {
    CrossOrigin('Chromium is available (required when CI=true)', () => {
      assert.unreachable(message)
    })
  },
)

CrossOrigin.run()
