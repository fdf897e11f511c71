import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'

/**
 * The load run of keyed creates, against the service started as a user starts it (the built
 * `petstore-service` command, test target on): `node dist/test/bench/keyed-creates.js [creates]
 * [sandboxes]`. It makes `sandboxes` sandboxes, resets each, then sends `creates` (10,000 by
 * default) creates with an `Idempotency-Key` all at once, spread over them; a tenth of them give up
 * on their answer at a random moment (an answer lost), and each is retried with the same key and
 * body until it is answered 201. Meanwhile other sandboxes loop through reset, creates and a check.
 * Then it walks every page of every sandbox and prints what was lost (a 201 whose pet is not
 * stored), duplicated (a key that stored two pets, or a pet listed twice) and contradicted (a 201
 * whose pet differs from the one stored under its id). Figures only: it exits 1 when any is not 0,
 * or when a create was answered anything but 201 or 409.
 */
const CREATES = Number(process.argv[2] ?? '10000')
/** Enough that each sandbox's share fits in its budget (about 450 keyed creates: the sandbox tag of the contract). */
const SANDBOXES = Number(process.argv[3] ?? '40')
/** Sandboxes that loop through reset, a few creates and a check, for the whole run. */
const CHURNING = 10
const KEY = 'load-run-key-0123456789abcdef'

interface Pet {
  readonly id: number
  readonly name: string
  readonly categoryId: number
  readonly status: string
}

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address !== null ? done(address.port) : fail(new Error('no port'))))
    })
  })

const call = async (
  base: string,
  key: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<{ status: number; body: unknown; link: string | null }> => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown), link: response.headers.get('link') }
}

const startService = async (): Promise<{ base: string; stop: () => Promise<void> }> => {
  const port = await freePort()
  const child = spawn(process.execPath, [resolve(__dirname, '../../src/main/cli.js')], {
    env: { ...process.env, PORT: String(port), PETSTORE_API_KEYS: KEY, PETSTORE_TEST_TARGET: 'on', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break
    } catch {
      if (attempt > 300) throw new Error('the service did not start')
      await new Promise((done) => setTimeout(done, 100))
    }
  }
  const exited = new Promise<void>((done) => child.on('exit', () => done()))
  return { base, stop: async () => (child.kill('SIGTERM'), await exited) }
}

/** A page, read again (it is safe to) when its connection fails, as a client walking pages would. */
const readPage = async (base: string, key: string, path: string, tally: Tally): ReturnType<typeof call> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call(base, key, 'GET', path)
    } catch (error) {
      if (attempt === 3) throw error
      tally.pageRetries += 1
    }
  }
}

/** Every pet of a sandbox, page after page by `Link: rel="next"`. */
const walk = async (base: string, key: string, tally: Tally): Promise<Pet[]> => {
  const pets: Pet[] = []
  let path: string | undefined = '/v1/pets?limit=100'
  while (path !== undefined) {
    const page = await readPage(base, key, path, tally)
    if (page.status !== 200) throw new Error(`a page answered ${page.status}`)
    pets.push(...(page.body as Pet[]))
    const next = /<([^>]*)>;\s*rel="next"/.exec(page.link ?? '')?.[1]
    path = next === undefined ? undefined : new URL(next, base).pathname + new URL(next, base).search
  }
  return pets
}

interface Tally {
  attempts: number
  timedOut: number
  /** Page reads whose connection failed, each read again. */
  pageRetries: number
  lostAnswers: number
  retried409: number
  other: Map<number, number>
}

/**
 * One keyed create, retried with the same key and body until it is answered 201 (or refused for
 * good: any status but 409, which the run then counts); some attempts give up on their answer.
 */
const keyedCreate = async (base: string, key: string, idempotencyKey: string, body: object, tally: Tally): Promise<Pet | undefined> => {
  for (;;) {
    tally.attempts += 1
    const giveUp = Math.random() < 0.1 ? AbortSignal.timeout(Math.floor(Math.random() * 50)) : undefined
    try {
      const answer = await call(base, key, 'POST', '/v1/pets', {
        body,
        headers: { 'idempotency-key': idempotencyKey },
        ...(giveUp === undefined ? {} : { signal: giveUp }),
      })
      if (answer.status === 201) return answer.body as Pet
      // 409: the key's first attempt is still being carried out; 408: the service, overloaded, did
      // not read the request in time (10,000 connections opened at once) and carried out nothing.
      if (answer.status === 408) tally.timedOut += 1
      else if (answer.status !== 409) {
        tally.other.set(answer.status, (tally.other.get(answer.status) ?? 0) + 1)
        return undefined
      } else tally.retried409 += 1
      await new Promise((done) => setTimeout(done, 20))
    } catch {
      tally.lostAnswers += 1
    }
  }
}

interface Verdict {
  lost: number
  duplicated: number
  contradicted: number
  /** Pets of an earlier round of a churning sandbox: an attempt given up on, which the service read after the reset. */
  late: number
}

/**
 * What the answers said against what the sandbox stores: each answered pet stored as answered, no
 * pet stored twice, nothing else stored but pets of `earlier` rounds (see Verdict.late).
 */
const judge = (
  answered: ReadonlyMap<string, Pet>,
  stored: ReadonlyArray<Pet>,
  verdict: Verdict,
  earlier?: (name: string) => boolean,
): void => {
  const byId = new Map<number, Pet>()
  const names = new Map<string, number>()
  for (const pet of stored) {
    if (byId.has(pet.id)) verdict.duplicated += 1
    byId.set(pet.id, pet)
    names.set(pet.name, (names.get(pet.name) ?? 0) + 1)
  }
  for (const pet of answered.values()) {
    const kept = byId.get(pet.id)
    if (kept === undefined) verdict.lost += 1
    else if (JSON.stringify(kept) !== JSON.stringify(pet)) verdict.contradicted += 1
  }
  // Each key's body has a name of its own: two pets of one name are one key stored twice.
  for (const [name, times] of names) {
    if (times > 1) verdict.duplicated += times - 1
    if (!answered.has(name)) {
      if (earlier?.(name) === true) verdict.late += times
      else verdict.duplicated += times
    }
  }
}

const main = async (): Promise<void> => {
  const service = await startService()
  const tally: Tally = { attempts: 0, timedOut: 0, pageRetries: 0, lostAnswers: 0, retried409: 0, other: new Map() }
  const verdict: Verdict = { lost: 0, duplicated: 0, contradicted: 0, late: 0 }
  try {
    const makeSandbox = async (): Promise<string> => {
      const made = await call(service.base, KEY, 'POST', '/v1/sandboxes')
      if (made.status !== 201) throw new Error(`making a sandbox answered ${made.status}`)
      return (made.body as { key: string }).key
    }
    const keys = await Promise.all(Array.from({ length: SANDBOXES }, makeSandbox))
    const churning = await Promise.all(Array.from({ length: CHURNING }, makeSandbox))
    for (const key of keys) if ((await call(service.base, key, 'POST', '/v1/sandbox/reset')).status !== 204) throw new Error('reset')
    let running = true
    let churnRounds = 0
    const churn = async (key: string): Promise<void> => {
      for (let round = 0; running; round += 1) {
        const reset = await call(service.base, key, 'POST', '/v1/sandbox/reset')
        if (reset.status !== 204) throw new Error(`reset answered ${reset.status}`)
        const answered = new Map<string, Pet>()
        await Promise.all(
          Array.from({ length: 20 }, async (_, index) => {
            const name = `churn ${key.slice(-6)} ${round} ${index}`
            const pet = await keyedCreate(service.base, key, name.replaceAll(' ', '-'), { name, categoryId: 1 }, tally)
            if (pet !== undefined) answered.set(name, pet)
          }),
        )
        judge(answered, await walk(service.base, key, tally), verdict, (name) => name.startsWith(`churn ${key.slice(-6)} `))
        churnRounds += 1
      }
    }
    const churned = Promise.all(churning.map(churn))
    const started = performance.now()
    const answered = keys.map(() => new Map<string, Pet>())
    await Promise.all(
      Array.from({ length: CREATES }, async (_, index) => {
        const sandbox = index % SANDBOXES
        const name = `load ${index}`
        const pet = await keyedCreate(service.base, keys[sandbox] ?? KEY, `key-${index}`, { name, categoryId: 1 + (index % 5) }, tally)
        if (pet !== undefined) answered[sandbox]?.set(name, pet)
      }),
    )
    const seconds = (performance.now() - started) / 1000
    running = false
    await churned
    for (const [sandbox, key] of keys.entries()) judge(answered[sandbox] ?? new Map(), await walk(service.base, key, tally), verdict)
    console.log(
      `${CREATES} keyed creates over ${SANDBOXES} sandboxes, all sent at once, in ${seconds.toFixed(1)} s; ` +
        `${CHURNING} other sandboxes ran ${churnRounds} rounds of reset, 20 keyed creates and a check meanwhile`,
    )
    console.log(
      `attempts ${tally.attempts}, answers given up on ${tally.lostAnswers}, 409 in use (retried) ${tally.retried409}, ` +
        `408 not read in time (retried) ${tally.timedOut}, page reads whose connection failed (read again) ${tally.pageRetries}, ` +
        `other statuses ${JSON.stringify(Object.fromEntries(tally.other))}`,
    )
    console.log(`lost ${verdict.lost}, duplicated ${verdict.duplicated}, contradicted ${verdict.contradicted}`)
    console.log(`pets of an earlier round, from an attempt given up on that the service read after a reset: ${verdict.late}`)
  } finally {
    await service.stop()
  }
  if (verdict.lost + verdict.duplicated + verdict.contradicted + tally.other.size > 0) process.exitCode = 1
}

void main()
