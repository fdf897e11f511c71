import { pipe } from 'fp-ts/function'
import * as TE from 'fp-ts/TaskEither'
import { memoryStore } from '../../adapters/memory/memory-store.js'
import type { PetDraft } from '../../src/domain/pet.js'
import type { PetRepository } from '../../src/domain/pet-repository.js'
import type { DataSets } from '../../src/store/data-sets.js'
import { aNewPet } from './pet-builder.js'

/** Five pets a sandbox starts from, and their ids. */
export const SEED: ReadonlyArray<PetDraft> = Array.from({ length: 5 }, (_, index) =>
  aNewPet({ name: `seeded ${index + 1}`, categoryId: index }),
)
export const SEEDED_IDS = [1, 2, 3, 4, 5]

/** The ids of a list's pets. */
export const idsOf = (body: unknown): ReadonlyArray<number> => (body as ReadonlyArray<{ id: number }>).map((pet) => pet.id)

/** `space`, with each sandbox's pet repository replaced by what `change` makes of it. */
export const withSandboxPets = (space: DataSets, change: (pets: PetRepository) => PetRepository): DataSets => ({
  ...space,
  open: (sandbox) =>
    pipe(
      space.open(sandbox),
      TE.map((ports) => ({ ...ports, pets: change(ports.pets) })),
    ),
})

/** A gate a test opens: work that `pass`es through it waits there, and `atGate` resolves once some does. */
export const gate = () => {
  let reached = (): void => undefined
  let open = (): void => undefined
  const atGate = new Promise<void>((resolve) => (reached = resolve))
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { atGate, open: () => open(), pass: async (): Promise<void> => (reached(), opened) }
}

/**
 * The sandboxes of a memory store seeded with `seed`, whose creates wait at a gate the test opens,
 * so that a create can be held in flight (across a reset, or the end of its sandbox).
 */
export const gatedInserts = (seed: ReadonlyArray<PetDraft>) => {
  const store = memoryStore(seed)
  if (store.dataSets === undefined) throw new Error('the memory store has sandboxes')
  const inserting = gate()
  const space = withSandboxPets(store.dataSets, (pets) => ({
    ...pets,
    insert: (draft, createId) =>
      pipe(
        TE.fromTask(inserting.pass),
        TE.flatMap(() => pets.insert(draft, createId)),
      ),
  }))
  return { space, size: store.dataSets.size, atGate: inserting.atGate, open: inserting.open }
}
