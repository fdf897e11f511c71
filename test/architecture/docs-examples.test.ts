import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readDocuments } from '../support/documents.js'

/** The client's key in every example; the service's own setting, PETSTORE_API_KEYS, is a list of keys. */
const CLIENT_KEY_VARIABLE = 'PETSTORE_API_KEY'

/** A key sent from an environment variable: `Bearer $NAME`, `Bearer ${NAME}`, `Bearer ${process.env.NAME}`. */
const KEY_FROM_VARIABLE = /Bearer \$\{?(?:process\.env\.)?([A-Z][A-Z0-9_]*)/g

const Examples = suite('The examples of README.md, CONTRIBUTING.md and docs/')

Examples(`send the API key from one variable, $${CLIENT_KEY_VARIABLE}, in every shell and Node example`, () => {
  const sent = readDocuments().flatMap(({ path, text }) => [...text.matchAll(KEY_FROM_VARIABLE)].map((match) => `${path}: ${match[1]}`))
  assert.ok(sent.length > 0)
  assert.equal(
    sent.filter((use) => !use.endsWith(`: ${CLIENT_KEY_VARIABLE}`)),
    [],
  )
})

Examples.run()
