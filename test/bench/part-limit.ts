import { alternate } from './measure.js'
import { pad } from './report.js'
import { LIST } from './scenarios.js'
import { BARE, RAW, startServer, stopAll } from './servers.js'

/** The limit: the minimal server's list against a bare node:http server sending a fixed array. */
export const limitPart = async (): Promise<void> => {
  const servers = [await startServer('bare', BARE), await startServer('minimal', RAW)]
  try {
    const list = alternate(servers, [LIST]).get(LIST.name)
    const bare = list?.get('bare')
    const minimal = list?.get('minimal')
    console.log(`\nThe limit: list (limit 20) on the minimal server against a bare node:http server sending a fixed JSON array`)
    console.log(
      `bare rps ${pad(bare?.rps ?? NaN)} (${pad(bare?.cpuUs ?? NaN, 0, 1)} µs CPU per request)   ` +
        `minimal rps ${pad(minimal?.rps ?? NaN)} (${pad(minimal?.cpuUs ?? NaN, 0, 1)} µs)   ` +
        `minimal/bare ${pad((minimal?.rps ?? NaN) / (bare?.rps ?? NaN), 5, 2)}`,
    )
  } finally {
    await stopAll(servers)
  }
}
