import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse } from 'yaml'

/** docs/openapi.yaml, the contract; this module runs from dist/adapters/http after compilation. */
export const OPENAPI_FILE = resolve(__dirname, '../../../docs/openapi.yaml')

/** Reads the contract once; the service serves it as JSON and the tests check responses against it. */
export const loadOpenApiDocument = (file: string = OPENAPI_FILE): Record<string, unknown> =>
  parse(readFileSync(file, 'utf8')) as Record<string, unknown>
