import { randomBytes } from 'node:crypto'
import * as E from 'fp-ts/Either'
import { readConfig } from './config.js'
import { startService } from './service.js'

const generateKey = (): string => randomBytes(24).toString('base64url')

const config = readConfig(process.env, generateKey)
if (E.isLeft(config)) {
  process.stderr.write(`petstore: cannot start:\n${config.left.map((problem) => `  - ${problem}`).join('\n')}\n`)
  process.exit(1)
}
startService(config.right)
