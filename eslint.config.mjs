// Type-aware lint: floating promises and promises passed where a callback is expected are errors;
// eqeqeq, curly and exhaustive switches keep the habits of decision 0015.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'console/dist/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'bench/.build/**',
      'eslint.config.mjs',
      'jest.config.js',
      'scripts/build-if-stale.js',
      // Plain CommonJS preloaded into the service by `node --require` (bench/saml.ts --cpu-prof, bench/gc-report.ts),
      // outside the TS project.
      'bench/lib/cpu-profile-preload.js',
      'bench/lib/gc-trace-preload.js',
      // Plain CommonJS started by bench/instructions.ts under valgrind, without a build.
      'bench/lib/bare-row-server.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      curly: ['error', 'multi-line', 'consistent'],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  // Plain ES-module scripts (tools that ship only as ES modules): linted without type information.
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { console: 'readonly', process: 'readonly' } },
  },
  // CommonJS tool configs and scripts (dependency-cruiser's config, the table-readers check): no type information.
  {
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { console: 'readonly', process: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
);
