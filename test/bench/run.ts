import { execFileSync } from 'node:child_process'
import { cpus } from 'node:os'
import { LOAD_CORE, median, noise, resetNoise } from './measure.js'
import { featuresPart } from './part-features.js'
import { hostilePart } from './part-hostile.js'
import { jsonServerPart } from './part-json-server.js'
import { ladderPart } from './part-ladder.js'
import { limitPart } from './part-limit.js'
import { scalingPart } from './part-scaling.js'
import { servicePart } from './part-service.js'
import { testTargetPart } from './part-test-target.js'
import { printSummary } from './report.js'
import { QUICK, ROUNDS, SECONDS } from './scenarios.js'
import { SERVER_CORE } from './servers.js'

/**
 * `npm run bench`, in one run (each part in its own file): the bare node:http server against the
 * minimal server (the limit); the composed service against a straightforward build of the same
 * operations on the same libraries and against the minimal server, also at a fixed rate; the
 * service with each default feature turned off in turn (what each costs); getPet and listPets built
 * up a layer at a time; the service against json-server; test-target mode against the default mode
 * and WireMock; what hostile bodies cost; how list and get scale to 1,000,000 pets created over HTTP
 * and the memory that takes.
 * Rounds alternate between the servers compared, so that a noisy moment of the machine hits them
 * all. Figures only: each is printed beside its target, again in a summary at the end, and nothing
 * here passes or fails (docs/performance.md).
 */
const PARTS: ReadonlyArray<readonly [string, () => Promise<void>]> = [
  ['limit', limitPart],
  ['service', servicePart],
  ['features', featuresPart],
  ['ladder', ladderPart],
  ['json-server', jsonServerPart],
  ['test-target', testTargetPart],
  ['hostile', hostilePart],
  ['scaling', scalingPart],
]

/** How busy the machine was during the part just run. */
const printNoise = (): void => {
  const shares = noise.otherShares
  const during =
    shares.length === 0
      ? ''
      : `other programs used a median ${(100 * median(shares)).toFixed(0)}% (at most ${(100 * Math.max(...shares)).toFixed(0)}%) ` +
        `of one core during its ${shares.length} wrk runs; `
  console.log(
    `(This part: ${during}${(noise.waitedMs / 1000).toFixed(0)} s spent waiting for quiet moments, ` +
      `${noise.unquiet} measure${noise.unquiet === 1 ? '' : 's'} started without one.)`,
  )
}

const main = async (): Promise<void> => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is a problem.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      console.error('npm run bench needs wrk (Debian: apt-get install wrk)')
      process.exit(1)
    }
  }
  const chosen = (process.env.BENCH_PARTS ?? '').split(',').filter((part) => part !== '')
  const unknown = chosen.filter((part) => !PARTS.some(([name]) => name === part))
  if (unknown.length > 0) {
    console.error(`unknown BENCH_PARTS: ${unknown.join(', ')} (parts: ${PARTS.map(([name]) => name).join(', ')})`)
    process.exit(1)
  }
  // This process sends the hostile bodies and times the small requests: it stays off the servers' core.
  execFileSync('taskset', ['-cp', LOAD_CORE, String(process.pid)], { stdio: 'ignore' })
  const started = performance.now()
  console.log(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; servers on core ${SERVER_CORE}, ` +
      `wrk and this process on core ${LOAD_CORE}; ${ROUNDS} rounds of ${SECONDS}s${QUICK ? ' (BENCH_QUICK)' : ''}; ` +
      `${new Date().toISOString()}`,
  )
  const skipped = new Set([...(QUICK ? ['scaling'] : []), ...(process.env.BENCH_JSON_SERVER === 'off' ? ['json-server'] : [])])
  for (const [name, run] of PARTS) {
    if (!(chosen.length > 0 ? chosen.includes(name) : !skipped.has(name))) continue
    resetNoise()
    await run()
    printNoise()
  }
  printSummary()
  console.log(`\nThe run took ${((performance.now() - started) / 60_000).toFixed(1)} minutes.`)
}

void main()
