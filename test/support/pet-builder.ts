/** A valid createPet body; each test overrides only the field that matters to it. */
export const aNewPet = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'Rex',
  categoryId: 1,
  status: 'available',
  ...overrides,
})
