import { createTestApp, TestApp } from './app';
import { SmtpReceiver, startSmtpReceiver } from './smtp-receiver';

export interface MailingApp {
  t: TestApp;
  smtp: SmtpReceiver;
}

/**
 * The suite's app, mailing through an in-process SMTP receiver (plus `env`): both start before the
 * suite's tests, `started` hands them to the suite's variables, and both stop after its tests.
 */
export function withMailingApp(started: (app: MailingApp) => void, env: Record<string, string> = {}): void {
  let running: MailingApp | undefined;
  beforeAll(async () => {
    const smtp = await startSmtpReceiver();
    running = { smtp, t: await createTestApp({ SMTP_URL: smtp.url, ...env }) };
    started(running);
  });
  afterAll(async () => {
    await running?.t.close();
    await running?.smtp.stop();
  });
}
