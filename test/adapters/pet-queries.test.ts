import * as E from 'fp-ts/Either'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fromDocument, toDocument } from '../../adapters/mongodb/pet-document.js'
import { listFilter, PET_PROJECTION, seedDoneUpdate, STATUS_INDEX } from '../../adapters/mongodb/pet-queries.js'
import { aPet } from '../support/pet-builder.js'

const Queries = suite('MongoDB query documents')

Queries('lists everything when neither status nor position is given', () => {
  assert.equal(listFilter({ limit: 20 }), {})
})

Queries('filters by status and continues after a position with $gt on _id, never skip', () => {
  assert.equal(listFilter({ limit: 20, status: 'sold', after: 41 }), { status: 'sold', _id: { $gt: 41 } })
  assert.equal(listFilter({ limit: 5, after: 7 }), { _id: { $gt: 7 } })
})

Queries('serves the status filter in id order from one compound index', () => {
  assert.equal(STATUS_INDEX.key, { status: 1, _id: 1 })
})

Queries('projects exactly the stored pet fields', () => {
  assert.equal(Object.keys(PET_PROJECTION).sort(), ['_id', 'categoryId', 'name', 'status'])
})

Queries('ends a seed by lifting its mark and raising the counter to at least the seed size, never lowering it', () => {
  assert.equal(seedDoneUpdate(40), { $unset: { seeding: '' }, $max: { next: 40 } })
})

Queries.run()

const Documents = suite('Pet documents')

Documents('stores the id as _id and reads every field back', () => {
  const pet = aPet({ id: 3, categoryId: -2, status: 'pending' })
  assert.equal(toDocument(pet), { _id: 3, name: 'Rex', categoryId: -2, status: 'pending' })
  assert.equal(fromDocument(toDocument(pet)), E.right(pet))
})

Documents('drops anything else a document carries', () => {
  assert.equal(
    fromDocument({ _id: 3, name: 'Rex', categoryId: 1, status: 'sold', __v: 0, owner: 'x' }),
    E.right(aPet({ id: 3, status: 'sold' })),
  )
})

Documents('reports a document that is not a pet instead of serving it', () => {
  const result = fromDocument({ _id: 'abc', name: '', categoryId: 1.5, status: 'lost' })
  assert.ok(E.isLeft(result))
  assert.match(E.isLeft(result) ? result.left : '', /^stored pet abc is malformed: id: .*name: must not be empty/)
})

Documents.run()
