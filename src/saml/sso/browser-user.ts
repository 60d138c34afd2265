import { Injectable } from '@nestjs/common';
import { BrowserSession, BrowserSessionsService } from '../../end-users/hosted-login/browser-sessions.service';
import type { UserProfile } from './sso-requests.repository';

/** The end user signed in to this browser (hosted login session), with what an assertion may say. */
export interface BrowserUser {
  userId: string;
  sessionId: string;
  workspaceId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  /** When the password was typed for this session (ForceAuthn compares it). */
  authenticatedAt: Date;
  /** How the session was opened: the hosted login page has one way, the password. */
  authnMethod: 'password';
}

/**
 * The seam to the end-users module: its browser session (cookie esid) says who is
 * signed in; the profile comes from the SP query (joined on the SP's workspace, so
 * a user of another workspace simply has no profile there).
 */
@Injectable()
export class BrowserUsers {
  constructor(private readonly sessions: BrowserSessionsService) {}

  /** The session of the hosted-login cookie's token (the controller reads the cookie), or null. */
  session(token: string | undefined): Promise<BrowserSession | null> {
    return this.sessions.sessionFor(token);
  }

  /** The signed-in user as a member of the SP's workspace, or null. */
  asMember(session: BrowserSession | null, spWorkspaceId: string, profile: UserProfile | null): BrowserUser | null {
    if (!session || session.workspaceId !== spWorkspaceId || profile === null) return null;
    return {
      userId: session.userId,
      sessionId: session.sessionId,
      workspaceId: session.workspaceId,
      email: profile.email,
      firstName: profile.firstName || null,
      lastName: profile.lastName || null,
      emailVerified: profile.emailVerified,
      authenticatedAt: session.authenticatedAt,
      authnMethod: 'password',
    };
  }

  /** The hosted login page, told which workspace's users may sign in and where to come back. */
  loginLocation(loginUrl: string, workspaceId: string, next: string): string {
    const params = new URLSearchParams({ workspace_id: workspaceId, next });
    return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}${params.toString()}`;
  }
}
