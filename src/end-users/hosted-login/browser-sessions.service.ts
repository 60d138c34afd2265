import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { SessionsRepository } from '../sessions.repository';

export const SESSION_COOKIE = 'esid';
/** Hosted-login browser sessions last 12 hours; SSO then asks for the password again. */
export const BROWSER_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface BrowserSession {
  sessionId: string;
  userId: string;
  workspaceId: string;
  oauthClientId: string | null;
  email: string;
  authenticatedAt: Date;
}

/**
 * The end user's browser session from the hosted login page (cookie esid). The SAML module calls
 * current(req) to learn who is signed in; the cookie holds a random token, the database its hash.
 */
@Injectable()
export class BrowserSessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Who is signed in in this browser, or null (no cookie, unknown, expired, revoked, inactive user). */
  async current(req: Request): Promise<BrowserSession | null> {
    const token = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
    if (typeof token !== 'string' || token.length < 20 || token.length > 200) return null;
    const row = await this.sessions.browserSession(sha256Hex(token), this.clock.now());
    if (!row) return null;
    return {
      sessionId: row.id,
      userId: row.userId,
      workspaceId: row.workspaceId,
      oauthClientId: row.oauthClientId,
      email: row.email,
      authenticatedAt: row.createdAt,
    };
  }

  newToken(): { token: string; hash: string; expiresAt: Date } {
    const token = randomBytes(32).toString('base64url');
    return { token, hash: sha256Hex(token), expiresAt: new Date(this.clock.now().getTime() + BROWSER_SESSION_TTL_MS) };
  }

  setCookie(res: Response, token: string): void {
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.COOKIE_SECURE,
      path: '/',
      maxAge: BROWSER_SESSION_TTL_MS,
    });
  }

  clearCookie(res: Response): void {
    res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: this.config.COOKIE_SECURE, path: '/' });
  }
}
