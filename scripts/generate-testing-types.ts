// `npm run generate:testing-types`: writes the types of `petstore-service/testing` from the contract
// again, after a change to it (see scripts/testing-types.ts).
import { writeFileSync } from 'node:fs'
import { TESTING_TYPES_FILE, testingTypes } from './testing-types.js'

testingTypes().then(
  (text) => writeFileSync(TESTING_TYPES_FILE, text),
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  },
)
