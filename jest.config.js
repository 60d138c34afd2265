/**
 * Three projects: pure unit tests beside the code; repository tests beside the code
 * (*.repo-spec.ts: the database module and one feature's providers on the per-worker database,
 * or another live service such as Redis); and e2e suites that boot the real app.
 *
 * TypeScript is compiled by swc (decision 1010): file by file, no type information (`npm run typecheck`
 * checks types), with the decorator metadata Nest's dependency injection reads (`emitDecoratorMetadata`
 * in tsconfig.json). A cold run (CI has no Jest cache) compiles the service once per project and worker.
 */
const swc = (syntax) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax, decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
/**
 * A checkout whose node_modules predates swc keeps working with ts-jest, as before, until `npm install`:
 * the same output for this code base, only slower to compile. CI installs from package-lock.json (swc).
 */
function hasSwc() {
  try {
    require.resolve('@swc/jest');
    return true;
  } catch {
    console.warn('@swc/jest is not installed: compiling with ts-jest (slower from a cold cache). Run `npm install`.');
    return false;
  }
}
const compile = hasSwc()
  ? swc
  : (syntax) => ['ts-jest', { diagnostics: false, ...(syntax === 'ecmascript' ? { tsconfig: { allowJs: true } } : {}) }];
// jose 6, and the relying parties of the OpenID tests (openid-client 6, oauth4webapi 3), ship ES modules only;
// Jest (CommonJS mode) needs them transpiled. Node itself loads them fine.
const esmDeps = {
  transform: {
    '^.+\\.ts$': compile('typescript'),
    '^.+/node_modules/(jose|openid-client|oauth4webapi)/.+\\.js$': compile('ecmascript'),
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
