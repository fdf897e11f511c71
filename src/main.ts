import { randomBytes } from 'node:crypto'
import * as E from 'fp-ts/Either'
import { readConfig } from './config.js'
import { startService } from './service.js'
import { openStore } from './store.js'

const generateKey = (): string => randomBytes(24).toString('base64url')

const refuseToStart = (problems: ReadonlyArray<string>): never => {
  process.stderr.write(`petstore: cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n`)
  process.exit(1)
}

const config = readConfig(process.env, generateKey)
if (E.isLeft(config)) refuseToStart(config.left)
else {
  const store = openStore(config.right.store, config.right.seed?.pets)
  if (E.isLeft(store)) refuseToStart([store.left])
  else void startService(config.right, store.right)
}
