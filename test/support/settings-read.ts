import { readConfig } from '../../src/main/config.js'

/**
 * The names of the environment variables readConfig reads, watched as it reads them: with the
 * defaults, in production, and with every setting of the MongoDB store, which are read only then.
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
  return read
}
