import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { generateAuditSigningKey } from '../../src/config/dev-secrets';
import { createTestApp, TestApp } from './app';
import { AppProcess, spawnApp } from './app-process';
import { RemoteTenant, setUpTenantAt } from './remote-tenant';

/**
 * The spawn-and-kill scaffolding of the crash tests: an instance run as a separate process (as an
 * operator runs one) that the test kills with SIGKILL in the middle of its work, and the instance
 * that takes over on the same database with the same secrets, either in this process (to read the
 * database) or as a process again on the same port (a restart: same public URL, same issuer).
 */
export class CrashScenario {
  /** The secrets both instances share (so the survivor reads what the killed one encrypted and signed), plus the test's settings. */
  readonly env: Record<string, string>;
  crashed?: AppProcess;
  survivor?: TestApp;
  restarted?: AppProcess;

  constructor(label: string, settings: Record<string, string> = {}) {
    this.env = {
      AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      AUDIT_SIGNING_KEYS: generateAuditSigningKey(label),
      ...settings,
    };
  }

  /** Starts the instance that will be killed. */
  async start(): Promise<AppProcess> {
    this.crashed = await spawnApp({ ...this.env, LOG_LEVEL: 'warn' });
    return this.crashed;
  }

  /** kill -9: no shutdown hook runs, no transaction commits, in-flight requests get no answer. */
  async kill(): Promise<void> {
    await this.crashed!.stop('SIGKILL');
  }

  /** Another instance, in this process, takes over the killed one's database. */
  async takeOver(): Promise<TestApp> {
    this.survivor = await createTestApp(this.env);
    return this.survivor;
  }

  /** The killed instance started again as a process on its port. */
  async restart(): Promise<AppProcess> {
    this.restarted = await spawnApp({ ...this.env, LOG_LEVEL: 'warn' }, { port: this.crashed!.port });
    return this.restarted;
  }

  async close(): Promise<void> {
    await this.crashed?.stop('SIGKILL');
    await this.restarted?.stop('SIGKILL');
    await this.survivor?.close();
  }
}

/** A developer, workspace and SCIM token on a running instance: the tenant and the identity provider's SCIM headers. */
export async function scimTenantAt(baseUrl: string): Promise<{ tenant: RemoteTenant; scim: Record<string, string> }> {
  const tenant = await setUpTenantAt(baseUrl);
  const minted = await request(baseUrl)
    .post('/developer/scim/tokens/')
    .set(tenant.auth)
    .send({ workspace_id: tenant.workspaceId, label: 'idp' })
    .expect(201);
  return { tenant, scim: { Authorization: `Bearer ${minted.body.token}`, 'Content-Type': 'application/scim+json' } };
}
