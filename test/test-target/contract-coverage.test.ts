import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { contractCoverage } from '../../adapters/test-target/contract-coverage.js'
import type { Operation } from '../../adapters/test-target/fault-rule.js'
import { requestJournal } from '../../adapters/test-target/request-journal.js'
import { keepAnswered } from '../support/kept-requests.js'

const DECLARED = [
  { operation: 'listPets', status: 200, codes: [] },
  { operation: 'getPet', status: 200, codes: [] },
  { operation: 'createPet', status: 201, codes: [] },
] as const

const Coverage = suite('A sandbox’s coverage keeps within its part of the budget')

Coverage('marks past the part are not kept, and a reset frees the part for new ones', () => {
  // Two marks of 12 characters fit (64 + 24 bytes each), a third does not.
  const coverage = contractCoverage(200)
  const journal = coverage.noting(requestJournal(1_000_000))
  const reach = (operation: Operation, status: number): void => keepAnswered(journal, 'sandbox', '/v1/pets', { operation, status })
  reach('listPets', 200)
  reach('listPets', 200)
  reach('getPet', 200)
  reach('createPet', 201)
  const reached = (): ReadonlyArray<boolean> => coverage.of('sandbox', DECLARED, []).responses.map((response) => response.reached)
  assert.equal(reached(), [true, true, false])
  coverage.clear('sandbox')
  reach('createPet', 201)
  assert.equal(reached(), [false, false, true])
})

Coverage.run()
