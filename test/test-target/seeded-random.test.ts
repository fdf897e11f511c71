import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { MAX_SEED, mulberry32 } from '../../adapters/test-target/seeded-random.js'

const Random = suite('mulberry32: the generator a fault rule’s chance draws from')

/** The first `count` draws from `seed`, and the state after them. */
const draws = (seed: number, count: number): { values: number[]; state: number } => {
  const values: number[] = []
  let state = seed
  for (let index = 0; index < count; index += 1) {
    const draw = mulberry32(state)
    values.push(draw.value)
    state = draw.next
  }
  return { values, state }
}

Random('draws the sequence of the reference implementation, so a seed names the same sequence everywhere', () => {
  assert.equal(draws(0, 2).values, [0.26642920868471265, 0.0003297457005828619])
  assert.equal(draws(42, 4).values, [0.6011037519201636, 0.44829055899754167, 0.8524657934904099, 0.6697340414393693])
  assert.equal(draws(MAX_SEED, 2).values, [0.8964226141106337, 0.189478256739676])
})

Random('every draw is in [0, 1), and every state a seed a rule accepts: the state it shows goes on with the same sequence', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: MAX_SEED }), fc.integer({ min: 1, max: 20 }), (seed, count) => {
      const { values, state } = draws(seed, count)
      assert.ok(values.every((value) => value >= 0 && value < 1))
      assert.ok(Number.isSafeInteger(state) && state >= 0 && state <= MAX_SEED)
      assert.equal([...values, ...draws(state, 3).values], draws(seed, count + 3).values)
    }),
  )
})

Random.run()
