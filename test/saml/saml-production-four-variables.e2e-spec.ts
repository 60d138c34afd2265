import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { NameIdKeysRepository } from '../../src/saml/idp/nameid-keys.repository';
import { resolveNameIdKey } from '../../src/saml/idp/nameid-key';
import { NAME_ID_FORMAT } from '../../src/saml/protocol/saml-urns';
import { createTestApp, TestApp } from '../support/app';
import { spawnApp } from '../support/app-process';
import { databasePrefix, databaseUrl, recreateDatabase, withAdmin } from '../support/databases';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { newBrowser, ssoAs } from './support/browser-flow';
import { aRegisteredSp, authorizePath, formFields, RegisteredSp } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';

/**
 * A production deployment configured exactly as the spec says: SAML_IDP_ENTITY_ID,
 * SAML_IDP_SSO_URL, SAML_IDP_CERT_PEM and SAML_IDP_KEY_PEM, nothing else about SAML. The NameID
 * key is generated on first boot and kept, sealed, in the database (decision 0207). A fresh
 * database of its own: this is a new deployment.
 */
describe('production with only the four SAML variables of the spec', () => {
  const database = `${databasePrefix()}_saml_four_w${process.env.JEST_WORKER_ID ?? '1'}`;
  const { SAML_IDP_ENTITY_ID, SAML_IDP_SSO_URL, SAML_IDP_CERT_PEM, SAML_IDP_KEY_PEM } = samlEnv();
  const deployment = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl(database),
    SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
    SAML_IDP_ENTITY_ID,
    SAML_IDP_SSO_URL,
    SAML_IDP_CERT_PEM,
    SAML_IDP_KEY_PEM,
    SAML_NAMEID_SECRET: '',
  };
  let smtp: SmtpReceiver;
  let t: TestApp;
  let tenant: Tenant;
  let user: TestEndUser;
  let sp: RegisteredSp;

  beforeAll(async () => {
    await withAdmin((client) => recreateDatabase(client, database, `${databasePrefix()}_template`));
    smtp = await startSmtpReceiver();
    t = await createTestApp({ ...deployment, SMTP_URL: smtp.url });
    tenant = await aTenant(t);
    user = await anEndUser(t, tenant.client, { smtp });
    sp = await aRegisteredSp(t, tenant.dev, tenant.ws, { name_id_format: NAME_ID_FORMAT.persistent });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
    await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  });

  /** One SP-initiated sign-in on `app`; the persistent NameID node-saml accepted. */
  async function signIn(app: TestApp): Promise<string> {
    const page = await ssoAs(newBrowser(app), (await authorizePath(sp)).path, user);
    expect(page.status).toBe(200);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
    expect(profile?.nameIDFormat).toBe(NAME_ID_FORMAT.persistent);
    return profile!.nameID;
  }

  it('serves the metadata and signs users in, with a NameID key generated and kept sealed in the database', async () => {
    const metadata = await t.http().get('/saml/metadata/').expect(200);
    expect(metadata.text).toContain(`entityID="${SAML_IDP_ENTITY_ID}"`);
    const nameId = await signIn(t);
    expect(nameId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = (await t.dataSource.query(`SELECT sealed_key, check_value FROM saml_nameid_keys`)) as {
      sealed_key: string | null;
      check_value: string;
    }[];
    expect(row.sealed_key).toMatch(/^v1:k1:/);
    // Sealed: the key itself is nowhere in the row.
    const key = new SecretBox(deployment.SECRETS_ENCRYPTION_KEY).decrypt(row.sealed_key!);
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it('keeps the same NameIDs across a restart, and refuses to start with a SAML_NAMEID_SECRET that would change them', async () => {
    const before = await signIn(t);
    await t.close();
    t = await createTestApp({ ...deployment, SMTP_URL: smtp.url });
    expect(await signIn(t)).toBe(before);
    // An operator who now sets a different key: the instance says why and does not start.
    const changed = await spawnApp(
      { ...deployment, SAML_NAMEID_SECRET: 'another-secret-that-is-long-enough-0123456789' },
      { waitForLive: false },
    );
    expect(await changed.exited).not.toBe(0);
    expect(changed.logs.join('\n')).toMatch(
      /SAML_NAMEID_SECRET is not the key this deployment's NameIDs have been derived from since .*Unset SAML_NAMEID_SECRET/,
    );
  }, 120_000);

  it('hands two instances that create the key at the same moment one and the same key', async () => {
    await t.dataSource.query(`DELETE FROM saml_nameid_keys`);
    const keys = t.get<NameIdKeysRepository>(NameIdKeysRepository);
    const box = new SecretBox(deployment.SECRETS_ENCRYPTION_KEY);
    // Two pooled connections: both read "no key" and both insert; one insert wins.
    const [a, b] = await Promise.all([resolveNameIdKey(undefined, keys, box), resolveNameIdKey(undefined, keys, box)]);
    expect(a).toBe(b);
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM saml_nameid_keys`)).toEqual([{ n: 1 }]);
  });
});
