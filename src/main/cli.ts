#!/usr/bin/env node
import { readArguments } from './arguments.js'
import { main } from './main.js'

/**
 * `npm start` and the `petstore-service` command: the service, configured by the environment and
 * the command line. A command line that cannot be read exits with status 2, as is usual for usage
 * errors, apart from the 1 of a setting that cannot be used.
 */
const invocation = readArguments(process.argv.slice(2))
switch (invocation.kind) {
  case 'help':
    process.stdout.write(invocation.text)
    break
  case 'refused':
    process.stderr.write(`${invocation.message}\n`)
    process.exitCode = 2
    break
  case 'run':
    void main({ ...process.env, ...invocation.settings })
}
