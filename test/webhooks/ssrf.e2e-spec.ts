import { SecretBox } from '../../src/common/crypto/secret-box';
import { generateWebhookSecret } from '../../src/webhooks/signature';
import { createTestApp, TestApp } from '../support/app';
import { consistently, eventually } from '../support/eventually';
import { aDeveloper, aWorkspace, TestDeveloper } from '../support/factories';
import { WebhookReceiver } from './receiver';

/** Without WEBHOOK_ALLOW_PRIVATE_TARGETS (the default outside development), webhooks reach public https endpoints only. */
describe('webhooks: server-side request forgery', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  beforeAll(async () => {
    t = await createTestApp({ AUDIT_SEAL_INTERVAL_MS: '50', WEBHOOK_DISPATCH_INTERVAL_MS: '50', WEBHOOK_RETRY_BASE_MS: '100' });
    dev = await aDeveloper(t);
  });
  afterAll(() => t.close());

  it.each([
    ['http://93.184.216.34/hook', /only https/, false],
    ['http://localhost:8080/hook', /only https/, true],
    ['https://127.0.0.1/hook', /forbidden address/, true],
    ['https://localhost:8443/hook', /forbidden address/, true],
    ['https://[::1]/hook', /forbidden address/, true],
    ['https://[::ffff:127.0.0.1]/hook', /forbidden address/, true],
    ['https://169.254.169.254/latest/meta-data/', /forbidden address/, true],
    ['https://10.0.0.5/hook', /forbidden address/, true],
    ['https://192.168.1.10/hook', /forbidden address/, true],
    ['https://224.0.0.1/hook', /forbidden address/, true],
  ])('refuses %s with the documented validation error', async (url, reason, privateReceiver) => {
    const ws = await aWorkspace(t, dev);
    const res = await t
      .http()
      .post('/developer/webhooks/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, url, event_types: ['*'] })
      .expect(400);
    // details.<field> is a list of problems, as documented for every validation error.
    expect(res.body).toMatchObject({ error: 'validation_failed', details: { url: [expect.stringMatching(reason)] } });
    expect(Object.keys(res.body.details)).toEqual(['url']);
    // A local or private receiver is told which variable allows it (in development); a public one is not.
    const hint = /WEBHOOK_ALLOW_PRIVATE_TARGETS=true/;
    for (const text of [res.body.message as string, (res.body.details.url as string[])[0]]) {
      if (privateReceiver) expect(text).toMatch(hint);
      else expect(text).not.toMatch(hint);
    }
    const patchTarget = await t.http().get('/developer/webhooks/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    expect(patchTarget.body.results).toEqual([]);
  });

  it('checks again at delivery time: an endpoint that now points at a private address gets nothing', async () => {
    const ws = await aWorkspace(t, dev);
    const receiver = await new WebhookReceiver().start();
    try {
      // An endpoint stored when its name still resolved to a public address (DNS rebinding), or
      // while private targets were allowed: the delivery must still refuse to connect.
      const secret = generateWebhookSecret();
      receiver.secret = secret;
      const [{ id }] = (await t.dataSource.query(
        `INSERT INTO webhook_subscriptions (workspace_id, url, event_types, secret_encrypted) VALUES ($1, $2, '{*}', $3) RETURNING id`,
        [ws.id, receiver.url.replace('http:', 'https:'), new SecretBox(t.config.SECRETS_ENCRYPTION_KEY!).encrypt(secret)],
      )) as { id: string }[];
      await t.http().patch(`/e/v1/developer/workspaces/${ws.id}/`).set(dev.auth).send({ name: 'rebound' }).expect(200);
      await eventually(
        async () => {
          const res = await t.http().get(`/developer/webhooks/${id}/deliveries/`).set(dev.auth).expect(200);
          const list = res.body.results as { status: string; last_error: string | null }[];
          // One delivery probes the failing endpoint; the others wait for it (they have no attempt yet).
          expect(list.some((d) => /forbidden address/.test(d.last_error ?? ''))).toBe(true);
          for (const d of list) expect(d.status).toBe('pending');
        },
        { timeoutMs: 20_000 },
      );
      await consistently(() => expect(receiver.received).toEqual([]), { forMs: 300 });
    } finally {
      await receiver.stop();
    }
  });
});

/** Decision 0309: a receiver on the developer's own machine works in development without a setting. */
describe('webhooks: local receivers by environment', () => {
  const FAST = { AUDIT_SEAL_INTERVAL_MS: '50', WEBHOOK_DISPATCH_INTERVAL_MS: '50', WEBHOOK_ALLOW_PRIVATE_TARGETS: '' };

  it('in development, an http://127.0.0.1 receiver is accepted and gets the signed delivery', async () => {
    const t = await createTestApp({ ...FAST, NODE_ENV: 'development' });
    const receiver = await new WebhookReceiver().start();
    try {
      const dev = await aDeveloper(t);
      const ws = await aWorkspace(t, dev);
      expect(receiver.url).toMatch(/^http:\/\/(127\.0\.0\.1|localhost)[:/]/);
      const created = await t
        .http()
        .post('/developer/webhooks/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, url: receiver.url, event_types: ['workspace_update'] })
        .expect(201);
      receiver.secret = created.body.secret as string;
      await t.http().patch(`/e/v1/developer/workspaces/${ws.id}/`).set(dev.auth).send({ name: 'renamed' }).expect(200);
      await eventually(() => expect(receiver.received.map((r) => r.payload.type)).toContain('workspace_update'), { timeoutMs: 20_000 });
    } finally {
      await receiver.stop();
      await t.close();
    }
  });

  it('in production, the same receiver is refused with the documented validation error', async () => {
    const t = await createTestApp({ ...FAST, NODE_ENV: 'production' });
    try {
      const dev = await aDeveloper(t);
      const ws = await aWorkspace(t, dev);
      const res = await t
        .http()
        .post('/developer/webhooks/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, url: 'http://127.0.0.1:4000/hooks', event_types: ['*'] })
        .expect(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', details: { url: [expect.stringMatching(/only https/)] } });
    } finally {
      await t.close();
    }
  });
});
