import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { getHeapStatistics } from 'node:v8'
import { type Scenario, work } from './scenarios.js'
import { NODE_MODULES, type Server, answerOf, startProcess } from './servers.js'

/**
 * WireMock 3.13 (the `wiremock` devDependency's standalone jar) serving the service's answers as
 * stubs: the test target many client developers would pick instead of the service's test-target mode.
 */
const JAR = resolve(NODE_MODULES, 'wiremock/build/wiremock-standalone-3.13.2.jar')

/** Why WireMock cannot run here, or undefined when it can. */
export const wireMockMissing = (): string | undefined => {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' })
  } catch {
    return 'no `java` on the PATH (WireMock needs Java 11 or later; Debian: apt-get install openjdk-17-jre-headless)'
  }
  return existsSync(JAR) ? undefined : `no ${JAR} (npm install installs the wiremock devDependency)`
}

/** Headers the server of each answer writes itself, or that are the connection's: not part of a stub. */
const NOT_STUBBED = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

/** A WireMock stub mapping: `scenario`'s method and URL only (no key check, WireMock's least work), answered as `server` answered. */
const stubOf = async (server: Server, scenario: Scenario): Promise<object> => {
  const response = await answerOf(server, scenario)
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !NOT_STUBBED.has(name)))
  return {
    request: { method: scenario.method, url: scenario.path },
    response: { status: response.status, headers, body: await response.text() },
  }
}

/**
 * Starts WireMock with its default settings (request journal on, unbounded), pinned like the
 * servers to one core, with stubs giving `source`'s answers to `scenarios`, asked of it now (it must
 * be fresh: a create's answer carries the next id). Java gets the heap ceiling Node gives the
 * service by default on this machine, so that neither has more room than the other.
 */
export const startWireMock = async (source: Server, scenarios: ReadonlyArray<Scenario>): Promise<Server> => {
  const root = join(work, 'wiremock')
  mkdirSync(join(root, 'mappings'), { recursive: true })
  const mappings = []
  for (const scenario of scenarios) mappings.push(await stubOf(source, scenario))
  writeFileSync(join(root, 'mappings', 'pets.json'), JSON.stringify({ mappings }))
  const heapMb = Math.round(getHeapStatistics().heap_size_limit / 1024 / 1024)
  return startProcess(
    'WireMock',
    (port) => ['java', `-Xmx${heapMb}m`, '-jar', JAR, '--port', String(port), '--bind-address', '127.0.0.1', '--root-dir', root],
    { ready: '/__admin/mappings' },
  )
}
