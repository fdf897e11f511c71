import { sep } from 'node:path'
import { main } from '../../src/main/main.js'

/**
 * The service as `npm start` runs it, which says on stdout (a test harness), when sent SIGUSR2, how many of the test
 * target's modules Node has loaded (test/process/test-target-loading.process.test.ts).
 */
process.on('SIGUSR2', () => {
  const loaded = Object.keys(require.cache).filter((file) => file.includes(`${sep}test-target${sep}`))
  process.stdout.write(`test-target modules loaded: ${loaded.length}\n`)
})
void main(process.env)
