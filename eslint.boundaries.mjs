// Import boundaries of the hexagon, kept apart from eslint.config.mjs so that a test can lint a
// planted import with exactly these rules (test/architecture/import-boundaries.test.ts).
import tseslint from 'typescript-eslint'

/**
 * A name of the test target, in an identifier, a string or a template (an import's path included),
 * never in a comment: `fault` but not `default`.
 */
const TEST_TARGET_NAME = '/sandbox|(?<!de)fault|journal|inspector|test-?target/i'

const DOMAIN_MESSAGE = 'src/domain is pure: it may import only fp-ts, io-ts and its own modules, never adapters/, koa, mongodb or node I/O.'
const STORE_MESSAGE =
  'src/store holds the storage contracts every store adapter provides and the root wires (and the seed gate over them): it may import only fp-ts, io-ts, the domain and its own modules.'
const ADAPTER_MESSAGE =
  'An adapter depends on the domain, src/store and src/package-root.ts only, never on another adapter or on the composition root (src/main).'
const TEST_TARGET_NAMES_MESSAGE =
  'The test target is an extension of the HTTP adapter (adapters/http/extension.ts): adapters/http, adapters/auth, adapters/memory and src/domain name none of its concepts (sandbox, fault, journal, inspector, test target).'
const TEST_TARGET_MESSAGE =
  'The test target is a second driver built on the HTTP adapter: it depends on the domain, src/store, src/package-root.ts, adapters/http and adapters/auth only, never on another adapter or on src/main.'

export default [
  {
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: { parser: tseslint.parser },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!(?:fp-ts|io-ts)(?:/|$)|\\./[^/]+$)', message: DOMAIN_MESSAGE }] }],
    },
  },
  {
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!(?:fp-ts|io-ts)(?:/|$)|\\./[^/]+$|\\.\\./domain/[^/]+$)', message: STORE_MESSAGE }] },
      ],
    },
  },
  {
    files: ['adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./)|^\\.\\./\\.\\./(?!src/(?:(?:domain|store)/(?!.*\\.\\./)|package-root\\.js$))',
              message: ADAPTER_MESSAGE,
            },
          ],
        },
      ],
    },
  },
  {
    // The HTTP adapter mounts it through one interface (adapters/http/extension.ts) and never imports it;
    // its made keys are identified as the configured ones are (adapters/auth).
    files: ['adapters/test-target/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^\\.\\./(?!\\.\\./|(?:http|auth)/[^/]+$)|^\\.\\./\\.\\./(?!src/(?:(?:domain|store)/(?!.*\\.\\./)|package-root\\.js$))',
              message: TEST_TARGET_MESSAGE,
            },
          ],
        },
      ],
    },
  },
  {
    // The code the test target extends knows nothing of it, so that it reads without it.
    files: ['adapters/http/**/*.ts', 'adapters/auth/**/*.ts', 'adapters/memory/**/*.ts', 'src/domain/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Identifier[name=${TEST_TARGET_NAME}]`, message: TEST_TARGET_NAMES_MESSAGE },
        { selector: `Literal[value=${TEST_TARGET_NAME}]`, message: TEST_TARGET_NAMES_MESSAGE },
        { selector: `TemplateElement[value.raw=${TEST_TARGET_NAME}]`, message: TEST_TARGET_NAMES_MESSAGE },
      ],
    },
  },
]
