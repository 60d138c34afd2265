import { aFixtureIdp } from '../../../test/saml/support/fixture-idp';
import { aLoginInput } from '../../../test/saml/support/login-input';
import { certPemFromBase64, certificatesInMetadata, nodeSamlSp, TestSp, xmlsecVerify } from '../../../test/saml/support/saml-verifiers';
import type { IdpSettings } from '../idp/idp-settings';
import { buildIdpMetadata } from './idp-metadata';
import { LoginResponseInput } from './login-response.builder';
import { ResponseThreads } from './response-threads';

const SP = { entityId: 'https://sp.example.com/metadata', acsUrl: 'https://sp.example.com/saml/acs' };
let idp: IdpSettings;
let metadataCert: string;
const opened: ResponseThreads[] = [];

beforeAll(() => {
  idp = aFixtureIdp('signing-threads idp');
  metadataCert = certPemFromBase64(certificatesInMetadata(buildIdpMetadata(idp))[0]);
});

afterAll(async () => {
  await Promise.all(opened.map((threads) => threads.close()));
});

function threads(count: number): ResponseThreads {
  const made = new ResponseThreads(idp, count);
  opened.push(made);
  return made;
}

function anSp(): TestSp {
  return nodeSamlSp({ ...SP, idpSsoUrl: idp.ssoUrl, idpCert: metadataCert });
}

function input(sp: TestSp, nameId: string): LoginResponseInput {
  return aLoginInput(sp, { nameId, attributes: [{ name: 'email', value: nameId }] });
}

async function acceptedNameId(sp: TestSp, xml: string): Promise<string | undefined> {
  const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(xml).toString('base64') });
  return profile?.nameID;
}

describe('login Responses signed on worker threads', () => {
  it('answers twenty Responses asked at once, each for its own request and user, each accepted by node-saml and xmlsec1', async () => {
    const pool = threads(2);
    const sp = anSp();
    const users = Array.from({ length: 20 }, (_, i) => `user${i}@example.com`);
    const built = await Promise.all(users.map((user) => pool.loginResponse(input(sp, user))));

    expect(new Set(built.map((b) => b.responseId)).size).toBe(20);
    for (const [i, response] of built.entries()) {
      expect(await acceptedNameId(sp, response.xml)).toBe(users[i]);
      expect((await xmlsecVerify(response.xml, metadataCert, 'Assertion')).ok).toBe(true);
    }
  });

  it('answers a Response that cannot be built with the failure, and signs the next one', async () => {
    const pool = threads(1);
    const sp = anSp();
    const broken = { ...input(sp, 'ada@example.com'), authnInstant: 'not a date' as unknown as Date };

    await expect(pool.loginResponse(broken)).rejects.toThrow(/toISOString/);
    const next = await pool.loginResponse(input(sp, 'ada@example.com'));
    expect(await acceptedNameId(sp, next.xml)).toBe('ada@example.com');
  });

  it('signs with the same key on a fresh thread after its threads were stopped', async () => {
    const pool = threads(1);
    const sp = anSp();
    await pool.loginResponse(input(sp, 'before@example.com'));
    await pool.close();

    const after = await pool.loginResponse(input(sp, 'after@example.com'));
    expect(await acceptedNameId(sp, after.xml)).toBe('after@example.com');
    expect((await xmlsecVerify(after.xml, metadataCert, 'Assertion')).ok).toBe(true);
  });

  it('builds the Response on the calling thread when it has none', async () => {
    const pool = threads(0);
    const sp = anSp();
    const built = await pool.loginResponse(input(sp, 'inline@example.com'));
    expect(await acceptedNameId(sp, built.xml)).toBe('inline@example.com');
  });
});
