import * as TE from 'fp-ts/TaskEither'
import { storeUnavailable } from '../domain/errors.js'
import { gateCreates } from './store-ports.js'
import type { Store } from './store.js'

/**
 * The shared data set held back until its seed has settled (applied, or found not needed): until
 * then, however long the store is away or refuses the seed, the store is not ready and a create
 * answers 503 before its Idempotency-Key is claimed. A create that landed first would make the
 * store hold a pet, and the seed, tried again, would find it "not empty" and never be applied, not
 * even after a restart.
 */
export const seedGate = (store: Store): { readonly store: Store; readonly open: () => void } => {
  let settled = false
  const waiting = storeUnavailable('the seed is not applied yet; retrying')
  return {
    open: () => {
      settled = true
    },
    store: {
      ...store,
      shared: gateCreates(store.shared, () => (settled ? undefined : waiting)),
      ready: () => (settled ? store.ready() : TE.left(waiting)),
    },
  }
}
