import { Agent, request } from 'node:http'

/**
 * A load generator at a fixed rate, for the latency of a server below saturation: wrk only
 * saturates, and Debian has no wrk2. Run as a child of the benchmark (fixedRate in measure.ts), with
 * one JSON argument (FixedRateLoad); it prints one JSON line (FixedRateResult). Only its types are
 * imported elsewhere.
 *
 * Request i is due at start + i/rate and sent as soon as it is due, on one of `connections`
 * keep-alive connections, whether or not earlier ones have been answered (an open loop); when every
 * connection is busy it waits for one. Its latency runs from when it was due, not from when it went
 * out, so that a server that stalls is charged for the requests it kept waiting (what wrk2 calls
 * coordinated omission). The loop checks the clock on every turn of the event loop
 * (setImmediate), so that requests leave within microseconds of their time, as wrk2's do; it
 * keeps one core busy, as wrk does.
 */
export interface FixedRateLoad {
  readonly url: string
  readonly method: 'GET' | 'POST'
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  /** Requests per second. */
  readonly rate: number
  readonly seconds: number
  /** Sent at the same rate before the `seconds` measured, and not counted: the generator's JIT and connections settle. */
  readonly warmUpSeconds: number
  readonly connections: number
}

export interface FixedRateResult {
  readonly sent: number
  readonly answered: number
  /** Of those measured, answers other than 2xx and requests that failed: the run is not comparable when any. */
  readonly failed: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** The tail a p99 leaves out: a full collection's delays, which come less often than one request in a hundred. */
  readonly p999Ms: number
}

const percentile = (sorted: ReadonlyArray<number>, share: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN

const run = (load: FixedRateLoad): Promise<FixedRateResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: load.connections })
  const total = Math.round(load.rate * (load.warmUpSeconds + load.seconds))
  const warmUp = Math.round(load.rate * load.warmUpSeconds)
  const latencies: number[] = []
  let sent = 0
  let failed = 0
  let settled = 0
  const started = performance.now()
  return new Promise((done) => {
    const settle = (): void => {
      settled += 1
      if (settled < total) return
      agent.destroy()
      const sorted = latencies.sort((a, b) => a - b)
      done({
        sent: sent - warmUp,
        answered: latencies.length,
        failed,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        p999Ms: percentile(sorted, 0.999),
      })
    }
    const send = (index: number, due: number): void => {
      const counted = index >= warmUp
      const outgoing = request(load.url, { method: load.method, headers: load.headers, agent }, (response) => {
        response.resume()
        response.on('end', () => {
          const ok = response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300
          if (counted && ok) latencies.push(performance.now() - due)
          else if (counted) failed += 1
          settle()
        })
      })
      outgoing.on('error', () => {
        if (counted) failed += 1
        settle()
      })
      outgoing.end(load.body)
    }
    const tick = (): void => {
      const now = performance.now()
      while (sent < total && started + (sent * 1000) / load.rate <= now) {
        send(sent, started + (sent * 1000) / load.rate)
        sent += 1
      }
      if (sent < total) setImmediate(tick)
    }
    tick()
  })
}

void run(JSON.parse(process.argv[2] ?? '{}') as FixedRateLoad).then((result) => console.log(JSON.stringify(result)))
