import { spawnApp, SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';

/** What an operator sees when the boot stops on configuration: the problems as a list, no stack trace. */
async function bootOutput(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const app = await spawnApp(env, { waitForLive: false });
  const code = await app.exited;
  return { code, output: app.logs.join('\n') };
}

function expectNoStackTrace(output: string): void {
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('[Nest]');
  expect(output).not.toContain('ExceptionHandler');
}

describe('a configuration error at boot', () => {
  it(
    'lists every invalid variable, with the value given, and exits 1',
    async () => {
      const { code, output } = await bootOutput({ PORT: 'abc', LOG_LEVEL: 'loud' });
      expect(code).toBe(1);
      expect(output).toContain('The service did not start: 2 configuration problems.');
      expect(output).toMatch(/^ {2}- PORT="abc": .*integer/m);
      expect(output).toMatch(/^ {2}- LOG_LEVEL="loud": .*must be one of/m);
      expectNoStackTrace(output);
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );

  it(
    'lists every secret production requires and was not given',
    async () => {
      const { code, output } = await bootOutput({
        NODE_ENV: 'production',
        AUTH_JWT_SECRET: '',
        SECRETS_ENCRYPTION_KEY: '',
        AUDIT_SIGNING_KEYS: '',
      });
      expect(code).toBe(1);
      expect(output).toContain('3 configuration problems');
      for (const name of ['AUTH_JWT_SECRET', 'SECRETS_ENCRYPTION_KEY', 'AUDIT_SIGNING_KEYS']) {
        expect(output).toContain(`  - ${name}: required in production`);
      }
      expectNoStackTrace(output);
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );

  it(
    'reports a problem found while the application is assembled the same way, without secrets',
    async () => {
      const { code, output } = await bootOutput({ AUDIT_SIGNING_KEYS: 'not-a-keyring' });
      expect(code).toBe(1);
      expect(output).toContain('The service did not start: a configuration problem.');
      expect(output).toContain('  - AUDIT_SIGNING_KEYS: each entry is "kid:base64-pkcs8-der"');
      expect(output).not.toContain('not-a-keyring');
      expectNoStackTrace(output);
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );
});
