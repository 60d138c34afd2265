/**
 * Three projects: pure unit tests beside the code; repository tests beside the code
 * (*.repo-spec.ts: the database module and one feature's providers on the per-worker database,
 * or another live service such as Redis); and e2e suites that boot the real app.
 */
const tsJest = ['ts-jest', { diagnostics: false }];
// jose 6, and the relying parties of the OpenID tests (openid-client 6, oauth4webapi 3), ship ES modules only;
// Jest (CommonJS mode) needs them transpiled. Node itself loads them fine.
const esmDeps = {
  transform: {
    '^.+\\.ts$': tsJest,
    '^.+/node_modules/(jose|openid-client|oauth4webapi)/.+\\.js$': ['ts-jest', { diagnostics: false, tsconfig: { allowJs: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose|openid-client|oauth4webapi)/)'],
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
      // A generous ceiling per test (tests wait on conditions; the ceiling only stops a hang on a loaded machine).
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-ceiling.ts'],
    },
  ],
};
