import { randomBytes, randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { createTestApp, TestApp } from '../support/app';
import { AppProcess, spawnApp } from '../support/app-process';
import { mailQueueSettled } from '../support/mail-jobs';
import { setUpTenantAt } from '../support/remote-tenant';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';

/** An SMTP server that accepts a connection and never answers the message: a send in flight forever. */
async function hangingSmtp(): Promise<{ url: string; stop: () => Promise<void>; started: Promise<void> }> {
  let notify!: () => void;
  const started = new Promise<void>((resolve) => (notify = resolve));
  const server = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], onData: () => notify() });
  server.on('error', () => undefined); // the client dies with SIGKILL: its reset is expected
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, started, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('process killed while sending mail', () => {
  let crashed: AppProcess;
  let survivor: TestApp;
  let smtp: SmtpReceiver;

  afterAll(async () => {
    await crashed?.stop('SIGKILL');
    await survivor?.close();
    await smtp?.stop();
  });

  it('delivers the message exactly once after restart, and the change it belongs to keeps its audit row', async () => {
    const hang = await hangingSmtp();
    const shared = {
      AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      JOBS_LEASE_MS: '2000',
    };
    crashed = await spawnApp({ ...shared, SMTP_URL: hang.url, LOG_LEVEL: 'warn' });
    const tenant = await setUpTenantAt(crashed.baseUrl);
    const userEmail = `victim-${randomUUID().slice(0, 8)}@example.test`;
    await request(crashed.baseUrl)
      .post('/e/v1/auth/register/')
      .send({ client_id: tenant.clientId, email: userEmail, password: 'password-123' })
      .expect(201);

    await hang.started; // the crashed instance is mid-send
    await crashed.stop('SIGKILL');
    await hang.stop();

    smtp = await startSmtpReceiver();
    survivor = await createTestApp({ ...shared, SMTP_URL: smtp.url });
    const mail = await smtp.waitFor(userEmail, { timeoutMs: 30000 });
    expect(mail.text).toMatch(/\d{6}/);
    await mailQueueSettled();
    expect(smtp.messagesTo(userEmail)).toHaveLength(1);
    const audit = (await survivor.dataSource.query(
      `SELECT event_type FROM audit_events WHERE workspace_id = $1 AND event_type IN ('register', 'email_verify_send')`,
      [tenant.workspaceId],
    )) as { event_type: string }[];
    expect(audit.map((r) => r.event_type).sort()).toEqual(['email_verify_send', 'register']);
  }, 180000);
});
