import { METHODS } from 'node:http'
import { readFileSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadOpenApiDocument } from '../../adapters/http/openapi-document.js'
import { testTargetContract } from '../../adapters/test-target/contract.js'
import { TESTING_TYPES_FILE, testingTypes } from '../../scripts/testing-types.js'

const TestingTypes = suite('The types of petstore-service/testing')

TestingTypes('are what the contract generates now: a change to it without `npm run generate:testing-types` fails here', async () => {
  assert.fixture(readFileSync(TESTING_TYPES_FILE, 'utf8'), await testingTypes())
})

TestingTypes('type the journal’s method filter as the methods a request can have: those Node’s HTTP parser accepts', () => {
  const contract = testTargetContract(loadOpenApiDocument()) as {
    components: { parameters: { JournalMethod: { schema: { enum: ReadonlyArray<string> } } } }
  }
  assert.equal(contract.components.parameters.JournalMethod.schema.enum, METHODS)
})

TestingTypes.run()
