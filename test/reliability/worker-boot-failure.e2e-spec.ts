import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { nameIdKeyCheck } from '../../src/saml/idp/nameid-key';
import { spawnApp, SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { databasePrefix, databaseUrl, recreateDatabase, withAdmin } from '../support/databases';
import { samlEnv } from '../saml/support/saml-env';

/**
 * A deployment whose workers all read a configuration that cannot start the service: the primary
 * must stop with the reason once, not replace the failing workers forever (decision 0211).
 */
describe('a worker that fails its boot with several workers', () => {
  const database = `${databasePrefix()}_boot_fail_w${process.env.JEST_WORKER_ID ?? '1'}`;
  beforeAll(() => withAdmin((client) => recreateDatabase(client, database, `${databasePrefix()}_template`)), 60_000);
  afterAll(() => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)));

  it(
    'stops the service with exit 1 and prints the reason once when SECRETS_ENCRYPTION_KEY cannot open the NameID key',
    async () => {
      // The NameID key a previous deployment generated, sealed with a key the new configuration does not hold.
      const previous = new SecretBox(`old:${randomBytes(32).toString('base64')}`);
      const generated = randomBytes(32).toString('base64url');
      const db = new Client({ connectionString: databaseUrl(database) });
      await db.connect();
      try {
        await db.query(`INSERT INTO saml_nameid_keys (sealed_key, check_value) VALUES ($1, $2)`, [
          previous.encrypt(generated),
          nameIdKeyCheck(generated),
        ]);
      } finally {
        await db.end();
      }

      const app = await spawnApp(
        {
          ...samlEnv({ SAML_NAMEID_SECRET: '' }),
          // Production reads the NameID key from the database (development keeps one under DATA_DIR).
          NODE_ENV: 'production',
          DATABASE_URL: databaseUrl(database),
          SECRETS_ENCRYPTION_KEY: `new:${randomBytes(32).toString('base64')}`,
          WEB_CONCURRENCY: '2',
          LOG_FORMAT: 'json',
        },
        { waitForLive: false },
      );
      expect(await app.exited).toBe(1);
      const logs = app.logs.join('\n');
      const reason = /the NameID key kept in the database is sealed with key "old", which SECRETS_ENCRYPTION_KEY cannot open/g;
      expect(logs.match(reason)).toHaveLength(1);
      expect(logs).toContain('The service did not start: a configuration problem.');
      expect(logs).not.toContain('starting a replacement');
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );
});
