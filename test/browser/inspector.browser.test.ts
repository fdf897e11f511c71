import { type Browser, chromium, type Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import { SHOWN_WITHIN_MS, withChromium } from '../support/chromium.js'
import { aNewPet } from '../support/pet-builder.js'
import { OTHER_KEY, type RunningApi, startApi, TEST_KEY } from '../support/start-api.js'

interface Context {
  api: RunningApi
  browser: Browser
  page: Page
  errors: string[]
}

const NAME = 'The sandbox inspector page in Chromium'
const Inspector = suite<Context>(NAME, {} as Context)

withChromium(
  NAME,
  (executablePath) => {
    Inspector.before(async (context) => {
      context.browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] })
    })
    Inspector.before.each(async (context) => {
      context.api = await startApi({ sandboxes: memoryStore().dataSets })
      context.page = await context.browser.newPage()
      context.errors = []
      context.page.on('console', (message) => {
        if (message.type() === 'error') context.errors.push(message.text())
      })
      context.page.on('pageerror', (error) => context.errors.push(error.message))
      await context.page.goto(`${context.api.baseUrl}/sandbox`)
      await context.page.locator('#key').fill(TEST_KEY)
      await context.page.locator('#key-form button').click()
    })
    Inspector.after.each(async (context) => {
      await context.page.close()
      await context.api.close()
    })
    Inspector.after(async (context) => {
      await context.browser.close()
    })

    Inspector(
      'a request made with the key outside the page appears without a reload, and opens to its entry',
      async ({ api, page, errors }) => {
        await api.request('POST', '/v1/pets', { body: aNewPet({ name: 'Seen-In-The-Inspector' }) })
        await api.request('GET', '/v1/pets', { key: OTHER_KEY })
        const row = page.locator('#journal tr').first()
        await row.waitFor({ timeout: SHOWN_WITHIN_MS })
        assert.match(await row.innerText(), /^1\s+\S+\s+POST\s+\/v1\/pets\s+createPet\s+201/)
        assert.is(await page.locator('#journal tr').count(), 1)
        await row.click()
        assert.match(await page.locator('#entry').innerText(), 'Seen-In-The-Inspector')
        assert.match(await page.locator('#entry').innerText(), 'Bearer [redacted]')
        assert.equal(errors, [])
      },
    )

    Inspector('a script set on the page makes the next create fail; reset clears the journal', async ({ api, page, errors }) => {
      await page.locator('#script').fill('[{"operation": "createPet", "fault": "503", "times": 1}]')
      await page.locator('#set-script').click()
      await page.locator('#script-answer').getByText('200').waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.is((await api.request('POST', '/v1/pets', { body: aNewPet() })).status, 503)
      assert.is((await api.request('POST', '/v1/pets', { body: aNewPet() })).status, 201)
      await page.locator('#journal tr').nth(1).waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.match(await page.locator('#journal tr').nth(1).innerText(), /503\s+503/)
      await page.locator('#reset').click()
      await page.locator('#action').getByText('back to its seed').waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.equal((await api.request('GET', '/v1/sandbox/requests')).body, [])
      assert.equal(errors, [])
    })

    Inspector('marks a request a scripted answer answered as such, apart from the service’s own answers', async ({ api, page, errors }) => {
      const rules = [{ operation: 'listPets', answer: { status: 502, text: 'bad gateway' }, times: 1 }]
      assert.is((await api.request('PUT', '/v1/sandbox/faults', { body: rules })).status, 200)
      assert.is((await api.request('GET', '/v1/pets', { scripted: true })).status, 502)
      assert.is((await api.request('GET', '/v1/pets')).status, 200)
      const rows = page.locator('#journal tr')
      await rows.nth(1).waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.match(await rows.nth(1).innerText(), /^1\s+\S+\s+GET\s+\/v1\/pets\s+listPets\s+502\s+scripted answer$/)
      assert.match((await rows.nth(1).getAttribute('class')) ?? '', /\bscripted\b/)
      assert.not.match((await rows.nth(0).getAttribute('class')) ?? '', /\bscripted\b/)
      assert.equal(errors, [])
    })

    Inspector('shows each request’s number and operation, and filters by method, operation and status', async ({ api, page, errors }) => {
      await api.request('POST', '/v1/pets', { body: aNewPet() })
      await api.request('GET', '/v1/pets')
      await api.request('GET', '/v1/pets/1')
      await api.request('GET', '/v1/pets/99')
      const rows = page.locator('#journal tr')
      await rows.nth(3).waitFor({ timeout: SHOWN_WITHIN_MS })
      const texts = async (): Promise<string[]> => (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())
      assert.match((await texts()).join('\n'), /^4 \S+ GET \/v1\/pets\/99 getPet 404/)
      await page.locator('#filter-operation').selectOption('getPet')
      await page.locator('#status').getByText('2 requests with operation getPet.').waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.equal(
        (await texts()).map((text) => text.split(' ')[0]),
        ['4', '3'],
      )
      await page.locator('#filter-status').fill('404')
      await page.locator('#filter-status').press('Enter')
      await page.locator('#status').getByText('1 request with operation getPet, status 404.').waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.match((await texts()).join('\n'), /^4 \S+ GET \/v1\/pets\/99 getPet 404$/)
      await page.locator('#filter-operation').selectOption('')
      await page.locator('#filter-status').fill('')
      await page.locator('#filter-status').press('Enter')
      await page.locator('#filter-method').selectOption('POST')
      await page.locator('#status').getByText('1 request with method POST.').waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.match((await texts()).join('\n'), /^1 \S+ POST \/v1\/pets createPet 201$/)
      assert.equal(errors, [])
      // A filter the service refuses: its message, and no rows; the browser logs the 400 itself.
      await page.locator('#filter-status').fill('abc')
      await page.locator('#filter-status').press('Enter')
      await page.locator('#status').getByText('status: must be an integer from 100 to 599').waitFor({ timeout: SHOWN_WITHIN_MS })
      assert.is(await rows.count(), 0)
      assert.ok(
        errors.every((error) => error.includes('status of 400')),
        errors.join('\n'),
      )
    })

    Inspector(
      'shows the report beside the journal: findings, warnings and deprecated calls apart, and what of the contract is reached',
      async ({ api, page, errors }) => {
        assert.is((await api.request('GET', '/v1/pets/1')).status, 404)
        await page.locator('#deprecated').getByText('getPet, 1 call (#1): getPet is deprecated').waitFor({ timeout: SHOWN_WITHIN_MS })
        assert.equal(
          [await page.locator('#findings').innerText(), await page.locator('#warnings').innerText()],
          ['No findings.', 'No warnings.'],
        )
        assert.match(await page.locator('#coverage').innerText(), /^Reached 1 of \d+ responses, 1 of \d+ error codes, 0 of \d+ faults\.$/)
        assert.match((await page.locator('#unreached').textContent()) ?? '', 'createPet 400 invalid_body')
        assert.not.match((await page.locator('#unreached').textContent()) ?? '', 'getPet 404 not_found')
        for (let read = 0; read < 2; read += 1) await api.request('POST', '/v1/pets', { body: aNewPet() })
        for (let read = 0; read < 2; read += 1) assert.is((await api.request('GET', '/v1/pets?limit=1')).status, 200)
        await page.locator('#warnings').getByText('link_not_followed (#4, #5)').waitFor({ timeout: SHOWN_WITHIN_MS })
        assert.is((await api.request('POST', '/v1/pets', { body: aNewPet(), headers: { prefer: 'fault=500' } })).status, 500)
        await api.request('POST', '/v1/pets', { body: aNewPet() })
        await page.locator('#findings').getByText('retry_without_idempotency_key (#6, #7)').waitFor({ timeout: SHOWN_WITHIN_MS })
        assert.equal(errors, [])
      },
    )

    Inspector('loads without a key, keeps the key only in the tab, and obeys the reference page’s CSP', async ({ api, page }) => {
      const response = await page.request.get(`${api.baseUrl}/sandbox`)
      assert.is(response.status(), 200)
      assert.match(response.headers()['content-security-policy'] ?? '', "default-src 'self'")
      assert.is(await page.evaluate<string | null>("sessionStorage.getItem('petstore-sandbox-key')"), TEST_KEY)
      assert.is(await page.evaluate<number>('localStorage.length'), 0)
    })
  },
  (message) => {
    Inspector('Chromium is available (required when CI=true)', () => {
      assert.unreachable(message)
    })
  },
)

Inspector.run()
