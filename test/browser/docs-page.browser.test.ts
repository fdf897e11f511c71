import { type Browser, chromium, type Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SHOWN_WITHIN_MS, withChromium } from '../support/chromium.js'
import { aNewPet } from '../support/pet-builder.js'
import { type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

interface Context {
  api: RunningApi
  browser: Browser
  page: Page
}

const NAME = 'The reference page in Chromium'
const DocsInBrowser = suite<Context>(NAME, {} as Context)

withChromium(
  NAME,
  (executablePath) => {
    DocsInBrowser.before(async (context) => {
      context.api = await startApi()
      context.browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] })
    })
    DocsInBrowser.before.each(async (context) => {
      context.page = await context.browser.newPage()
    })
    DocsInBrowser.after.each(async (context) => {
      await context.page.close()
    })
    DocsInBrowser.after(async (context) => {
      await context.browser.close()
      await context.api.close()
    })

    DocsInBrowser('shows the three operations, getPet marked deprecated, with no console errors', async ({ api, page }) => {
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(`${api.baseUrl}/docs`)
      for (const operation of ['listPets', 'createPet', 'getPet']) {
        await page.locator(`#operations-pets-${operation}`).waitFor({ timeout: SHOWN_WITHIN_MS })
      }
      assert.ok(await page.locator('#operations-pets-getPet.opblock-deprecated').isVisible())
      assert.not.ok(await page.locator('#operations-pets-listPets.opblock-deprecated').isVisible())
      assert.equal(errors, [])
    })

    DocsInBrowser(
      'shows the pet operations on the first screen at 1280×900, the rules every answer follows below them',
      async ({ api, page }) => {
        await page.setViewportSize({ width: 1280, height: 900 })
        await page.goto(`${api.baseUrl}/docs`)
        await page.locator('#operations-pets-getPet').waitFor({ timeout: SHOWN_WITHIN_MS })
        for (const operation of ['listPets', 'createPet', 'getPet']) {
          const row = await page.locator(`#operations-pets-${operation}`).boundingBox()
          assert.ok(row !== null && row.y >= 0 && row.y + row.height <= 900, `${operation} row at ${JSON.stringify(row)}`)
        }
        const lastPetOperation = await page.locator('#operations-pets-getPet').boundingBox()
        const rules = await page.locator('#operations-tag-contract').boundingBox()
        assert.ok(
          lastPetOperation !== null && rules !== null && rules.y > lastPetOperation.y,
          'the contract section follows the pet operations',
        )
      },
    )

    DocsInBrowser('answers a request made from the page with a key', async ({ api, page }) => {
      await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Seen-From-The-Browser' }) })
      await page.goto(`${api.baseUrl}/docs`)
      await page.locator('button.authorize').first().click()
      await page.locator('.modal-ux input').first().fill(TEST_KEY)
      await page.locator('.modal-ux button.authorize').click()
      await page.locator('.modal-ux button.btn-done').click()
      await page.locator('#operations-pets-listPets .opblock-summary-control').click()
      await page.locator('#operations-pets-listPets button.execute').click()
      const status = page.locator('#operations-pets-listPets .live-responses-table tr.response .response-col_status').first()
      await status.waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.is((await status.innerText()).trim(), '200')
      assert.match(await page.locator('#operations-pets-listPets .live-responses-table').innerText(), 'Seen-From-The-Browser')
    })
  },
  (message) => {
    DocsInBrowser('Chromium is available (required when CI=true)', () => {
      assert.unreachable(message)
    })
  },
)

DocsInBrowser.run()
