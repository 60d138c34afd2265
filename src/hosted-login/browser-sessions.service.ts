import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../common/clock';
import { sha256Hex } from '../common/crypto/tokens';
import { MfaService } from '../second-factor/mfa.service';
import { SessionsService } from '../sessions/sessions.service';
import { BROWSER_SESSION_TTL_MS } from './browser-session-cookie';

export { BROWSER_SESSION_TTL_MS, SESSION_COOKIE } from './browser-session-cookie';

export interface BrowserSession {
  sessionId: string;
  userId: string;
  workspaceId: string;
  oauthClientId: string | null;
  email: string;
  authenticatedAt: Date;
  /** How the browser session was authenticated (RFC 8176). */
  amr: string[];
}

/** A session as its cookie finds it: with the user's profile, read in the same statement (what a SAML assertion says). */
export interface BrowserSessionWithProfile extends BrowserSession {
  firstName: string;
  lastName: string;
  emailVerified: boolean;
}

/**
 * The end user's browser session from the hosted login page (cookie esid). The cookie holds a
 * random token, the database its hash. Controllers read the cookie (browser-session-cookie.ts)
 * and ask sessionFor(token), as the SAML module does to learn who is signed in.
 */
@Injectable()
export class BrowserSessionsService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
    private readonly mfa: MfaService,
  ) {}

  /** Whether the user has a second factor to step up with (SAML asks before sending them to the login page). */
  async hasSecondFactor(workspaceId: string, userId: string): Promise<boolean> {
    return this.mfa.hasSecondFactor(workspaceId, userId);
  }

  /** Who holds this cookie token, or null (none, unknown, expired, revoked, inactive user). */
  async sessionFor(token: unknown): Promise<BrowserSessionWithProfile | null> {
    if (typeof token !== 'string' || token.length < 20 || token.length > 200) return null;
    const row = await this.sessions.browserSession(sha256Hex(token));
    if (!row) return null;
    return {
      sessionId: row.id,
      userId: row.userId,
      workspaceId: row.workspaceId,
      oauthClientId: row.oauthClientId,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      emailVerified: row.emailVerified,
      authenticatedAt: row.createdAt,
      amr: row.amr,
    };
  }

  newToken(): { token: string; hash: string; expiresAt: Date } {
    const token = randomBytes(32).toString('base64url');
    return { token, hash: sha256Hex(token), expiresAt: new Date(this.clock.now().getTime() + BROWSER_SESSION_TTL_MS) };
  }
}
