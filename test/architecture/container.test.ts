import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { PACKAGE_ROOT as ROOT } from '../../src/package-root.js'

const read = (file: string): string => readFileSync(resolve(ROOT, file), 'utf8')

/** The instructions of the Dockerfile's last stage, the image that runs, continuation lines joined. */
const runStage = (): ReadonlyArray<string> => {
  const instructions = read('Dockerfile')
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  return instructions.slice(instructions.findLastIndex((line) => line.startsWith('FROM ')))
}

const Container = suite('The container recipe (Dockerfile; the GitHub workflow builds and tries it)')

Container('the image runs the packed command as a user without privileges, listening on every interface', () => {
  const stage = runStage()
  assert.ok(stage.includes('ENTRYPOINT ["petstore-service"]'))
  assert.ok(stage.some((line) => /^ENV .*\bHOST=0\.0\.0\.0\b/.test(line)))
  const user = stage.findLast((line) => line.startsWith('USER '))
  assert.ok(user !== undefined && !/^USER (root|0)\b/.test(user), user)
})

Container('the image checks its own health by asking /healthz with node, which every node image has', () => {
  const check = runStage().find((line) => line.startsWith('HEALTHCHECK ')) ?? ''
  assert.match(check, /CMD \["node", "-e", ".*\/healthz/)
})

Container('the build context holds what the build stage copies, and no more', () => {
  const copied = read('Dockerfile')
    .split('\n')
    .filter((line) => line.startsWith('COPY ') && !line.startsWith('COPY --from'))
    .flatMap((line) => line.split(/\s+/).slice(1, -1))
  const allowed = read('.dockerignore')
    .split('\n')
    .filter((line) => line.startsWith('!'))
    .map((line) => line.slice(1))
  assert.ok(read('.dockerignore').split('\n').includes('*'))
  assert.equal([...copied].sort(), [...allowed].sort())
})

Container.run()
