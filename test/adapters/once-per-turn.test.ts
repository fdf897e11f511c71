import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { oncePerTurn } from '../../adapters/http/once-per-turn.js'

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

const OncePerTurn = suite('oncePerTurn: the log line and metrics of each answer, handled a turn later')

OncePerTurn('Items given in one turn are handled together in the next, in the order given', async () => {
  const handled: string[][] = []
  let batch: string[] = []
  const record = oncePerTurn((item: string) => batch.push(item))
  record('a')
  record('b')
  record('c')
  assert.equal(batch, [], 'nothing is handled while the response is being written')
  await turn()
  handled.push(batch)
  batch = []
  record('d')
  await turn()
  handled.push(batch)
  assert.equal(handled, [['a', 'b', 'c'], ['d']])
})

OncePerTurn('An item given while a batch is handled waits for the next turn, and none is lost', async () => {
  const seen: number[] = []
  const record = oncePerTurn((item: number): void => {
    seen.push(item)
    if (item < 3) record(item + 1)
  })
  record(1)
  await turn()
  assert.equal(seen, [1])
  await turn()
  await turn()
  assert.equal(seen, [1, 2, 3])
})

OncePerTurn.run()
