import { resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { spawnService, waitForUrl } from '../support/spawn-service.js'
import { TEST_KEY } from '../support/start-api.js'

const ENTRY = resolve(__dirname, '../support/loaded-modules-entry.js')

/** How many of the test target's modules the service has loaded, once it listens with these settings. */
const testTargetModulesLoaded = async (env: Record<string, string>): Promise<number> => {
  const service = spawnService({ PETSTORE_API_KEYS: TEST_KEY, ...env }, ENTRY)
  try {
    await waitForUrl(service)
    service.child.kill('SIGUSR2')
    const [, count = ''] = await service.printed(/test-target modules loaded: (\d+)/)
    return Number(count)
  } finally {
    service.child.kill('SIGTERM')
    await service.exited
  }
}

const Loading = suite('The test target is loaded only when a setting turns it on')

Loading('with the default settings, none of the test target is loaded, so none of it runs on a request', async () => {
  assert.is(await testTargetModulesLoaded({}), 0)
})

Loading('with PETSTORE_TEST_TARGET=on, it is loaded', async () => {
  assert.ok((await testTargetModulesLoaded({ PETSTORE_TEST_TARGET: 'on' })) > 0)
})

Loading.run()
