import tseslint from 'typescript-eslint'
import boundaries from './eslint.boundaries.mjs'

export default tseslint.config(
  { ignores: ['dist/', 'lib/', 'coverage/', 'node_modules/', 'test/fixtures/'] },
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Ports are asynchronous by contract; a memory adapter or a test stub has nothing to await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  { files: ['**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  ...boundaries,
)
