import { randomUUID } from 'node:crypto';
import type { TestApp } from '../support/app';
import { aDeveloper, anOAuthClient, aWorkspace, TestDeveloper, TestOAuthClient, TestWorkspace, uniqueEmail } from '../support/factories';
import { codeIn, SmtpReceiver } from '../support/smtp-receiver';

export interface Tenant {
  dev: TestDeveloper;
  ws: TestWorkspace;
  client: TestOAuthClient;
}

export async function aTenant(t: TestApp, clientName = 'Acme Notes'): Promise<Tenant> {
  const dev = await aDeveloper(t);
  const ws = await aWorkspace(t, dev);
  const client = await anOAuthClient(t, dev, ws, clientName);
  return { dev, ws, client };
}

export interface TestEndUser {
  id: string;
  email: string;
  password: string;
  clientId: string;
}

/** Register through the API; with `smtp`, also read the emailed code and verify the address. */
export async function anEndUser(
  t: TestApp,
  client: TestOAuthClient,
  opts: { smtp?: SmtpReceiver; email?: string; password?: string; firstName?: string } = {},
): Promise<TestEndUser> {
  const email = opts.email ?? uniqueEmail('enduser');
  const password = opts.password ?? `pw-${randomUUID()}`;
  const res = await t
    .http()
    .post('/e/v1/auth/register/')
    .send({ client_id: client.client_id, email, password, first_name: opts.firstName ?? 'Ada' });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (opts.smtp) {
    const mail = await opts.smtp.waitFor(email);
    const verify = await t
      .http()
      .post('/e/v1/email/verify/')
      .send({ email, code: codeIn(mail) });
    if (verify.status !== 200) throw new Error(`verify failed: ${verify.status} ${JSON.stringify(verify.body)}`);
  }
  return { id: res.body.id as string, email, password, clientId: client.client_id };
}

export async function logIn(t: TestApp, user: TestEndUser, headers: Record<string, string> = {}) {
  const res = await t
    .http()
    .post('/e/v1/auth/login/')
    .set(headers)
    .send({ client_id: user.clientId, email: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { access_token: string; refresh_token: string; token_type: string; expires_in: number; session_id: string };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
