import { Clock } from '../../src/common/clock';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { uniqueEmail } from '../support/factories';
import { codeIn, startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, TestEndUser } from './support';
import { withMailingApp } from '../support/mailing-app';

describe('email verification with a real SMTP receiver', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let clock: Clock;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Acme Accounts <accounts@acme.test>' });
    clock = t.get<Clock>(Clock);
  });
  afterEach(() => clock.reset());
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const verify = (email: string, code: string) => t.http().post('/e/v1/email/verify/').send({ email, code });
  const resend = (email: string) => t.http().post('/e/v1/email/verify/resend/').send({ email });
  const wrongCode = (code: string) => (code === '000000' ? '000001' : '000000');

  it('mails the Registration Confirmation code, and the code verifies the address', async () => {
    const { client } = await aTenant(t, 'Acme Notes');
    const user = await anEndUser(t, client, { firstName: 'Grace' });
    const mail = await smtp.waitFor(user.email);
    expect(mail.subject).toMatch(/^\d{6} is your Acme Notes verification code$/);
    expect(mail.parsed.from?.value[0]).toEqual({ name: 'Acme Notes', address: 'accounts@acme.test' });
    expect(mail.text).toContain('Hi Grace,');
    expect(mail.html).toContain(codeIn(mail));
    const res = await verify(user.email.toUpperCase(), codeIn(mail));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    const audit = (await t.dataSource.query(
      `SELECT event_type, actor_type, actor_id, oauth_client_id FROM audit_events WHERE actor_id = $1 ORDER BY created_at`,
      [user.id],
    )) as Record<string, string>[];
    expect(audit.map((a) => a.event_type)).toEqual(['register', 'email_verify_send', 'email_verify_confirm']);
    expect(audit.every((a) => a.actor_type === 'end_user' && a.oauth_client_id === client.id)).toBe(true);
  });

  it('answers invalid_code for a wrong code', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const code = codeIn(await smtp.waitFor(user.email));
    const res = await verify(user.email, wrongCode(code));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_code');
    expect((await verify(user.email, 'abc')).body.error).toBe('invalid_code');
  });

  it('answers already_verified once verified', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const code = codeIn(await smtp.waitFor(user.email));
    await verify(user.email, code).expect(200);
    const again = await verify(user.email, code);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('already_verified');
    expect((await resend(user.email)).body.error).toBe('already_verified');
  });

  it('answers user_not_found for an email nobody registered', async () => {
    const res = await verify(uniqueEmail('ghost'), '123456');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('user_not_found');
    expect((await resend(uniqueEmail('ghost'))).body.error).toBe('user_not_found');
  });

  it('answers code_expired for a correct code an hour after it was sent (clock moved, no sleep)', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const code = codeIn(await smtp.waitFor(user.email));
    clock.advance(59 * 60 * 1000);
    expect((await verify(user.email, wrongCode(code))).body.error).toBe('invalid_code');
    clock.advance(60 * 1000 + 1);
    const res = await verify(user.email, code);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('code_expired');
  });

  it('voids the code after 5 wrong attempts, even for the right code, until a resend', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const code = codeIn(await smtp.waitFor(user.email));
    for (let i = 0; i < 5; i++) expect((await verify(user.email, wrongCode(code))).body.error).toBe('invalid_code');
    const blocked = await verify(user.email, code);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('too_many_attempts');
    clock.advance(61 * 1000);
    await resend(user.email).expect(200);
    const fresh = codeIn(await smtp.waitFor(user.email, { nth: 2 }));
    await verify(user.email, fresh).expect(200);
  });

  it('allows one resend per minute, with Retry-After, and the new code replaces the old', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const first = codeIn(await smtp.waitFor(user.email));
    const tooSoon = await resend(user.email);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.error).toBe('rate_limited');
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(tooSoon.headers['retry-after'])).toBeLessThanOrEqual(60);
    clock.advance(60 * 1000);
    const ok = await resend(user.email);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, message: expect.any(String) });
    const second = codeIn(await smtp.waitFor(user.email, { nth: 2 }));
    if (second !== first) expect((await verify(user.email, first)).body.error).toBe('invalid_code');
    await verify(user.email, second).expect(200);
  });

  it('escapes a hostile first name in the HTML body', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client, { firstName: '<img src=x>' });
    const mail = await smtp.waitFor(user.email);
    expect(mail.html).toContain('Hi &lt;img src=x&gt;,');
    expect(mail.html).not.toContain('<img src=x>');
  });
});

describe('mail delivery through an SMTP outage', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  it('keeps every message while SMTP is down and delivers them when it is back', async () => {
    const { client } = await aTenant(t);
    await smtp.stop();
    const users: TestEndUser[] = [];
    for (let i = 0; i < 3; i++) users.push(await anEndUser(t, client));
    // The outbox holds them; delivery was tried and failed.
    await waitUntil(async () => {
      const rows = (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM mail_outbox WHERE to_address = ANY($1) AND status = 'pending' AND attempts >= 1`,
        [users.map((u) => u.email)],
      )) as { n: number }[];
      return rows[0].n === 3;
    });
    expect(smtp.messages).toHaveLength(0);
    await smtp.start();
    for (const user of users) {
      const mail = await smtp.waitFor(user.email, { timeoutMs: 20_000 });
      await t
        .http()
        .post('/e/v1/email/verify/')
        .send({ email: user.email, code: codeIn(mail) })
        .expect(200);
    }
    const sent = (await t.dataSource.query(`SELECT status, html, text FROM mail_outbox WHERE to_address = ANY($1)`, [
      users.map((u) => u.email),
    ])) as { status: string; html: string | null; text: string | null }[];
    expect(sent.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(sent.every((r) => r.html === null && r.text === null)).toBe(true);
  });
});

function waitUntil(check: () => Promise<boolean>): Promise<void> {
  return eventually(async () => {
    if (!(await check())) throw new Error('condition not met in time');
  });
}
