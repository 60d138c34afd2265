import { randomUUID } from 'node:crypto';
import request from 'supertest';

export interface RemoteTenant {
  auth: { Authorization: string };
  workspaceId: string;
  clientId: string;
}

/**
 * Developer signup, cookie login, token mint, workspace and OAuth client through
 * the public API of a service at `baseUrl` (a spawned process, not an in-process app).
 */
export async function setUpTenantAt(baseUrl: string, password = `pw-${randomUUID()}`): Promise<RemoteTenant> {
  const http = () => request(baseUrl);
  const email = `dev-${randomUUID().slice(0, 8)}@example.test`;
  await http().post('/developer/auth/signup/').send({ email, password, name: 'Dev' }).expect(201);
  const login = await http().post('/developer/auth/login/').send({ email, password }).expect(200);
  const cookie = ([] as string[])
    .concat(login.headers['set-cookie'])
    .map((c) => c.split(';')[0])
    .join('; ');
  const minted = await http()
    .post('/developer/tokens/')
    .set('Cookie', cookie)
    .set('X-CSRF-Token', login.body.csrf_token)
    .send({ label: 'tests' })
    .expect(201);
  const auth = { Authorization: `Bearer ${minted.body.token}` };
  const ws = await http().post('/e/v1/developer/workspaces/').set(auth).send({ name: 'remote' }).expect(201);
  const client = await http().post('/developer/oauth/clients/').set(auth).send({ workspace_id: ws.body.id, name: 'App' }).expect(201);
  return { auth, workspaceId: ws.body.id as string, clientId: client.body.client_id as string };
}
