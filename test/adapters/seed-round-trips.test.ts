import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { SEED_BATCH_SIZE, seedRoundTrips } from '../../adapters/mongodb/mongo-seed.js'

const Bound = suite('The seed’s time bound')

Bound('grows with the seed: one round trip per batch of pets, each batch bounded on its own', () => {
  assert.is(seedRoundTrips(0), 4)
  assert.is(seedRoundTrips(36), 5)
  assert.is(seedRoundTrips(SEED_BATCH_SIZE), 5)
  assert.is(seedRoundTrips(SEED_BATCH_SIZE + 1), 6)
  assert.is(seedRoundTrips(200 * SEED_BATCH_SIZE), 204)
})

Bound.run()
