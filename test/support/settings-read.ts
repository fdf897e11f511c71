import { readConfig } from '../../src/main/config.js'
import { REMOVED_SETTINGS } from '../../src/main/settings.js'

/**
 * The names of the environment variables readConfig reads, watched as it reads them: with the
 * defaults, in production, and with every setting of the MongoDB store, which are read only then.
 * It reads the removed settings too, only to refuse them: those are left out.
 */
export const variablesReadConfigReads = (): ReadonlySet<string> => {
  const read = new Set<string>()
  const watched = (values: Readonly<Record<string, string>>): Readonly<Record<string, string | undefined>> =>
    new Proxy(values, {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name)
        return typeof name === 'string' ? target[name] : undefined
      },
    })
  for (const env of [{}, { NODE_ENV: 'production' }, { PETSTORE_STORE: 'mongodb', MONGODB_URI: 'mongodb://127.0.0.1:1/petstore' }]) {
    readConfig(watched(env), () => 'generated-key-for-tests')
  }
  for (const { name } of REMOVED_SETTINGS) read.delete(name)
  return read
}
