/**
 * Three projects: pure unit tests beside the code; repository tests beside the code
 * (*.repo-spec.ts: the database module and one feature's providers on the per-worker database,
 * or another live service such as Redis); and e2e suites that boot the real app.
 */
const tsJest = ['ts-jest', { diagnostics: false }];
// jose 6 ships ES modules only; Jest (CommonJS mode) needs it transpiled. Node itself loads it fine.
const esmDeps = {
  transform: { '^.+\\.ts$': tsJest, '^.+/node_modules/jose/.+\\.js$': ['ts-jest', { diagnostics: false, tsconfig: { allowJs: true } }] },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
};
module.exports = {
  maxWorkers: 2,
  testTimeout: 30000,
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/console/src/**/*.spec.ts'],
      ...esmDeps,
      testEnvironment: 'node',
    },
    {
      displayName: 'repository',
      rootDir: __dirname,
      testMatch: ['<rootDir>/src/**/*.repo-spec.ts'],
      ...esmDeps,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/repository-setup.ts',
      globalTeardown: '<rootDir>/test/support/repository-teardown.ts',
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      ...esmDeps,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
