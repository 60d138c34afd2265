import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { eventually } from '../../support/eventually';

/** What the upstream OP says about an account (its `sub` is the account id, the login name). */
export interface UpstreamAccountClaims {
  password?: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  /** What the OP reports the person used (RFC 8176), e.g. ['pwd'] or ['pwd', 'mfa']. */
  amr?: string[];
}

/**
 * A real upstream OpenID provider (panva's oidc-provider) in a child process on a loopback port,
 * started by `startUpstreamOp` and driven through its control routes. `issuer` is what a
 * connection's `oidc.issuer` names.
 */
export class UpstreamOp {
  private constructor(
    private readonly child: ChildProcess,
    readonly issuer: string,
  ) {}

  static async start(): Promise<UpstreamOp> {
    const child = fork(join(__dirname, 'upstream-op-server.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const issuer = await new Promise<string>((resolve, reject) => {
      child.once('message', (m: { issuer: string }) => resolve(m.issuer));
      child.once('exit', (code) => reject(new Error(`upstream OP exited with ${code}`)));
      child.once('error', reject);
    });
    const op = new UpstreamOp(child, issuer);
    // Ready when it serves its discovery document (the port is bound before the provider is built).
    await eventually(
      async () => {
        const res = await fetch(`${issuer}/.well-known/openid-configuration`);
        if (res.status !== 200) throw new Error(`discovery answered ${res.status}`);
      },
      { intervalMs: 50 },
    );
    return op;
  }

  /** Registers our connection as a client of the OP (client_secret_basic unless said otherwise). */
  async registerClient(client: { client_id: string; client_secret: string; redirect_uris: string[]; token_endpoint_auth_method?: string }) {
    await this.control('clients', client);
  }

  /** Creates the account or changes the claims given (the others are kept). */
  async setAccount(sub: string, claims: UpstreamAccountClaims) {
    await this.control('accounts', { sub, claims });
  }

  /** A new signing key; the old one leaves the JWKS unless `keepOld`. Answers the new key's kid. */
  async rotateKeys(keepOld = false): Promise<string> {
    return ((await this.control('rotate', { keepOld })) as { kid: string }).kid;
  }

  async jwksKids(): Promise<string[]> {
    const res = await fetch(`${this.issuer}/jwks`);
    return ((await res.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }

  private async control(route: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${this.issuer}/__control/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`upstream OP control ${route} answered ${res.status}: ${await res.text()}`);
    return res.json();
  }
}
