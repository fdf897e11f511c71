import { memoryPetRepository } from '../../adapters/memory/memory-pet-repository.js'
import { petRepositoryContract } from '../ports/pet-repository.contract.js'

petRepositoryContract('memory', async () => {
  const repository = memoryPetRepository()
  // One process holds one memory store: another "instance" in the same process shares it.
  return { repository, sibling: async () => repository, dispose: async () => undefined }
})
