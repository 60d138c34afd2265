import { Clock } from '../../src/common/clock';
import { totpCodeAt } from '../../src/second-factor/totp';
import type { TestApp } from '../support/app';
import { bearer, logIn, TestEndUser } from './support';

/**
 * The authenticator app of a test: codes computed from the secret the API returned, each for a
 * later 30-second step (the service's clock is moved forward), since a code works only once.
 */
export class TestAuthenticator {
  constructor(
    private readonly t: TestApp,
    readonly secret: string,
  ) {}

  /** A code of the current step (what an app shows right now). */
  current(): string {
    return totpCodeAt(this.secret, this.t.get<Clock>(Clock).now());
  }

  /** Move the service's clock to the next step and return that step's code. */
  next(): string {
    this.t.get<Clock>(Clock).advance(30_000);
    return this.current();
  }
}

/** Sign in with the password (no factor yet), set up TOTP and confirm it; returns the app and the recovery codes. */
export async function withTotp(
  t: TestApp,
  user: TestEndUser,
): Promise<{ app: TestAuthenticator; recoveryCodes: string[]; accessToken: string }> {
  const { access_token } = await logIn(t, user);
  const started = await t.http().post('/e/v1/auth/mfa/totp/').set(bearer(access_token)).send({});
  if (started.status !== 201) throw new Error(`totp start failed: ${started.status} ${JSON.stringify(started.body)}`);
  const app = new TestAuthenticator(t, started.body.secret as string);
  const confirmed = await t.http().post('/e/v1/auth/mfa/totp/confirm/').set(bearer(access_token)).send({ code: app.current() });
  if (confirmed.status !== 200) throw new Error(`totp confirm failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  return { app, recoveryCodes: confirmed.body.recovery_codes as string[], accessToken: access_token };
}

/** The password step of an account with a factor: the mfa_token. */
export async function passwordStep(t: TestApp, user: TestEndUser): Promise<string> {
  const res = await t.http().post('/e/v1/auth/login/').send({ client_id: user.clientId, email: user.email, password: user.password });
  if (res.status !== 200 || res.body.mfa_required !== true) {
    throw new Error(`expected mfa_required: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.mfa_token as string;
}

/** The claims of a JWT, unverified (the test only reads what the service put there). */
export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}
